import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { umaProviderList, umaProviderQuery } from '@/lib/uma-providers/schema';
import { listUmaProviders } from '@/lib/uma-providers/service';

// GET /uma-providers – UMA counterparties by region and currency, with allow-list status
const getUmaProviders = endpoint(
  {
    method: 'GET',
    path: '/uma-providers',
    summary: 'List available Counterparty Providers',
    description:
      'UMA providers, newest first by default. hasBlockedProviders=false leaves out providers that are not on the allow list.',
    tags: ['Available UMA Providers'],
    permission: 'VIEW',
    query: umaProviderQuery,
    responses: { 200: { description: 'Successful operation', schema: umaProviderList }, ...errors(400, 401, 403) },
  },
  async ({ query }) => ok(listUmaProviders(query)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getUmaProviders);
