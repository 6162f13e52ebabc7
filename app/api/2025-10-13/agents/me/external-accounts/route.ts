import { commandEndpoint, ok, created, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/agents/commands';
import { customerExternalAccountCreate, externalAccount, externalAccountList } from '@/lib/external-accounts/schema';
import { myExternalAccountsQuery } from '@/lib/agents/schema';

// GET /agents/me/external-accounts – the customer's external accounts (MANAGE_EXTERNAL_ACCOUNTS)
const list = commandEndpoint(
  {
    method: 'GET',
    path: '/agents/me/external-accounts',
    summary: 'List agent external accounts',
    tags: ['Agent Operations'],
    auth: 'agent',
    query: myExternalAccountsQuery,
    answer: ok,
    responses: { 200: { description: 'Successful operation', schema: externalAccountList }, ...errors(400, 401, 403) },
  },
  commands.listExternalAccounts,
  ({ raw }) => raw.query,
);

// POST /agents/me/external-accounts – add one for the agent's customer (MANAGE_EXTERNAL_ACCOUNTS)
const create = commandEndpoint(
  {
    method: 'POST',
    path: '/agents/me/external-accounts',
    summary: 'Add an external account',
    tags: ['Agent Operations'],
    auth: 'agent',
    body: customerExternalAccountCreate,
    answer: created,
    responses: {
      201: { description: 'External account created', schema: externalAccount },
      ...errors(400, 401, 403, 409),
    },
  },
  commands.addExternalAccount,
  ({ raw }) => raw.body,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(list, create);
