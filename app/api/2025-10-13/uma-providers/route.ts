import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as umaProviders from '@/lib/uma-providers/commands';
import { errors } from '@/lib/http/docs';
import { umaProviderList, umaProviderQuery } from '@/lib/uma-providers/schema';

// GET /uma-providers – UMA counterparties by region and currency, with allow-list status
const getUmaProviders = commandEndpoint(
  {
    method: 'GET',
    path: '/uma-providers',
    answer: ok,
    summary: 'List available Counterparty Providers',
    description:
      'UMA providers, newest first by default. hasBlockedProviders=false leaves out providers that are not on the allow list.',
    tags: ['Available UMA Providers'],
    query: umaProviderQuery,
    responses: { 200: { description: 'Successful operation', schema: umaProviderList }, ...errors(400, 401, 403) },
  },
  umaProviders.list,
  ({ query }) => query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getUmaProviders);
