import { commandEndpoint, created, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import {
  externalAccount,
  externalAccountList,
  platformExternalAccountCreate,
  platformExternalAccountsQuery,
} from '@/lib/external-accounts/schema';
import * as commands from '@/lib/external-accounts/platform-commands';

// POST /platform/external-accounts – add a bank account or wallet owned by the platform itself
const createPlatformExternalAccount = commandEndpoint(
  {
    method: 'POST',
    path: '/platform/external-accounts',
    summary: 'Add a new platform external account',
    tags: ['External Accounts'],
    body: platformExternalAccountCreate,
    answer: created,
    responses: {
      201: { description: 'External account created successfully', schema: externalAccount },
      ...errors(400, 401, 403, 409),
    },
  },
  commands.createPlatformExternalAccount,
  ({ raw }) => raw.body,
);

// GET /platform/external-accounts – the platform's own external accounts, newest first
const listPlatformExternalAccounts = commandEndpoint(
  {
    method: 'GET',
    path: '/platform/external-accounts',
    summary: 'List platform external accounts',
    tags: ['External Accounts'],
    answer: ok,
    query: platformExternalAccountsQuery,
    responses: { 200: { description: 'Successful operation', schema: externalAccountList }, ...errors(400, 401, 403) },
  },
  commands.listPlatformExternalAccounts,
  ({ raw }) => raw.query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createPlatformExternalAccount, listPlatformExternalAccounts);
