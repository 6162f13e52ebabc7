import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { endUserTerms } from '@/lib/customers/schema';
import { endUserTerms as currentTerms } from '@/lib/customers/profile';

// GET /customers/end-user-terms – current End User Terms version and where they are hosted
const getEndUserTerms = endpoint(
  {
    method: 'GET',
    path: '/customers/end-user-terms',
    summary: 'Get current End User Terms',
    tags: ['Customers'],
    permission: 'VIEW',
    responses: { 200: { description: 'Current End User Terms', schema: endUserTerms }, ...errors(401, 403) },
  },
  async () => ok(currentTerms()),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getEndUserTerms);
