import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { discoveryList, discoveryQuery } from '@/lib/discoveries/schema';
import { listDiscoveries } from '@/lib/discoveries/service';

// GET /discoveries – banks and payment providers per country and currency
const getDiscoveries = endpoint(
  {
    method: 'GET',
    path: '/discoveries',
    summary: 'List available receiving institution names',
    description:
      'Receiving institutions by country and currency; pass `bankName` when creating an external account. Without filters, every institution.',
    tags: ['Discoveries'],
    permission: 'VIEW',
    query: discoveryQuery,
    responses: { 200: { description: 'Successful operation', schema: discoveryList }, ...errors(400, 401, 403) },
  },
  async ({ query }) => ok(listDiscoveries(query)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getDiscoveries);
