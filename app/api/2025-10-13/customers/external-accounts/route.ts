import { commandEndpoint, created, ok, routes } from '@/lib/http/endpoint';
import * as accounts from '@/lib/external-accounts/customer-commands';
import { errors } from '@/lib/http/docs';
import {
  customerExternalAccountCreate,
  customerExternalAccountsQuery,
  externalAccount,
  externalAccountList,
} from '@/lib/external-accounts/schema';

// POST /customers/external-accounts – add a bank account or wallet for a customer (or, without customerId, for the platform)
const createCustomerExternalAccount = commandEndpoint(
  {
    method: 'POST',
    path: '/customers/external-accounts',
    answer: created,
    summary: 'Add a new external account',
    tags: ['External Accounts'],
    body: customerExternalAccountCreate,
    responses: {
      201: { description: 'External account created successfully', schema: externalAccount },
      ...errors(400, 401, 403, 409),
    },
  },
  accounts.create,
  ({ body }) => body,
);

// GET /customers/external-accounts – customers' external accounts, newest first
const listCustomerExternalAccounts = commandEndpoint(
  {
    method: 'GET',
    path: '/customers/external-accounts',
    answer: ok,
    summary: 'List Customer external accounts',
    tags: ['External Accounts'],
    query: customerExternalAccountsQuery,
    responses: { 200: { description: 'Successful operation', schema: externalAccountList }, ...errors(400, 401, 403) },
  },
  accounts.list,
  ({ query }) => query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createCustomerExternalAccount, listCustomerExternalAccounts);
