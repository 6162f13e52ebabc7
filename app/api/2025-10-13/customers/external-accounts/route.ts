import { created, endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import {
  customerExternalAccountCreate,
  customerExternalAccountsQuery,
  externalAccount,
  externalAccountList,
  type ExternalAccountCreate,
} from '@/lib/external-accounts/schema';
import * as externalAccounts from '@/lib/external-accounts/service';

// POST /customers/external-accounts – add a bank account or wallet for a customer (or, without customerId, for the platform)
const createCustomerExternalAccount = endpoint(
  {
    method: 'POST',
    path: '/customers/external-accounts',
    summary: 'Add a new external account',
    tags: ['External Accounts'],
    permission: 'MANAGE',
    body: customerExternalAccountCreate,
    idempotent: true,
    answer: created,
    responses: {
      201: { description: 'External account created successfully', schema: externalAccount },
      ...errors(400, 401, 403, 409),
    },
  },
  async ({ actor, body }) => externalAccounts.create(actor.platformId, body as ExternalAccountCreate),
);

// GET /customers/external-accounts – customers' external accounts, newest first
const listCustomerExternalAccounts = endpoint(
  {
    method: 'GET',
    path: '/customers/external-accounts',
    summary: 'List Customer external accounts',
    tags: ['External Accounts'],
    permission: 'VIEW',
    query: customerExternalAccountsQuery,
    responses: { 200: { description: 'Successful operation', schema: externalAccountList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query: { limit, cursor, customerId, currency } }) =>
    ok(
      await externalAccounts.list(
        actor.platformId,
        { owner: { kind: 'customers', customerId }, currency },
        limit,
        cursor,
      ),
    ),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createCustomerExternalAccount, listCustomerExternalAccounts);
