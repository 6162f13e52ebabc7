import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as commands from '@/lib/customers/commands';
import { errors } from '@/lib/http/docs';
import { endUserTerms } from '@/lib/customers/schema';

// GET /customers/end-user-terms – current End User Terms version and where they are hosted
const getEndUserTerms = commandEndpoint(
  {
    method: 'GET',
    path: '/customers/end-user-terms',
    answer: ok,
    summary: 'Get current End User Terms',
    tags: ['Customers'],
    responses: { 200: { description: 'Current End User Terms', schema: endUserTerms }, ...errors(401, 403) },
  },
  commands.getEndUserTerms,
  () => ({}),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getEndUserTerms);
