import { endpoint, ok, created, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import {
  customerExternalAccountCreate,
  externalAccount,
  externalAccountList,
  type ExternalAccountCreate,
} from '@/lib/external-accounts/schema';
import { myExternalAccountsQuery } from '@/lib/agents/schema';
import { addExternalAccount, listExternalAccounts } from '@/lib/agents/me';

// GET /agents/me/external-accounts – the customer's external accounts (MANAGE_EXTERNAL_ACCOUNTS)
const list = endpoint(
  {
    method: 'GET',
    path: '/agents/me/external-accounts',
    summary: 'List agent external accounts',
    tags: ['Agent Operations'],
    auth: 'agent',
    query: myExternalAccountsQuery,
    responses: { 200: { description: 'Successful operation', schema: externalAccountList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query }) => ok(await listExternalAccounts(actor, query)),
);

// POST /agents/me/external-accounts – add one for the agent's customer (MANAGE_EXTERNAL_ACCOUNTS)
const create = endpoint(
  {
    method: 'POST',
    path: '/agents/me/external-accounts',
    summary: 'Add an external account',
    tags: ['Agent Operations'],
    auth: 'agent',
    body: customerExternalAccountCreate,
    idempotent: true,
    answer: created,
    responses: {
      201: { description: 'External account created', schema: externalAccount },
      ...errors(400, 401, 403, 409),
    },
  },
  async ({ actor, body }) => addExternalAccount(actor, body as ExternalAccountCreate),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(list, create);
