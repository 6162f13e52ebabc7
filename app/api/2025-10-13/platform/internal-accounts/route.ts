import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { internalAccountList, platformInternalAccountsQuery } from '@/lib/accounts/schema';
import * as commands from '@/lib/accounts/platform-commands';

// GET /platform/internal-accounts – the platform's own internal accounts
const listPlatformInternalAccounts = commandEndpoint(
  {
    method: 'GET',
    path: '/platform/internal-accounts',
    summary: 'List platform internal accounts',
    tags: ['Internal Accounts'],
    answer: ok,
    query: platformInternalAccountsQuery,
    responses: { 200: { description: 'Successful operation', schema: internalAccountList }, ...errors(400, 401, 403) },
  },
  commands.listPlatformAccounts,
  ({ raw }) => raw.query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(listPlatformInternalAccounts);
