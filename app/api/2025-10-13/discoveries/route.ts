import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as discoveries from '@/lib/discoveries/commands';
import { errors } from '@/lib/http/docs';
import { discoveryList, discoveryQuery } from '@/lib/discoveries/schema';

// GET /discoveries – banks and payment providers per country and currency
const getDiscoveries = commandEndpoint(
  {
    method: 'GET',
    path: '/discoveries',
    answer: ok,
    summary: 'List available receiving institution names',
    description:
      'Receiving institutions by country and currency; pass `bankName` when creating an external account. Without filters, every institution.',
    tags: ['Discoveries'],
    query: discoveryQuery,
    responses: { 200: { description: 'Successful operation', schema: discoveryList }, ...errors(400, 401, 403) },
  },
  discoveries.list,
  ({ query }) => query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getDiscoveries);
