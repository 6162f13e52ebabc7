import { created, endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import {
  externalAccount,
  externalAccountList,
  platformExternalAccountCreate,
  platformExternalAccountsQuery,
  type ExternalAccountCreate,
} from '@/lib/external-accounts/schema';
import * as externalAccounts from '@/lib/external-accounts/service';

// POST /platform/external-accounts – add a bank account or wallet owned by the platform itself
const createPlatformExternalAccount = endpoint(
  {
    method: 'POST',
    path: '/platform/external-accounts',
    summary: 'Add a new platform external account',
    tags: ['External Accounts'],
    permission: 'MANAGE',
    body: platformExternalAccountCreate,
    idempotent: true,
    answer: created,
    responses: {
      201: { description: 'External account created successfully', schema: externalAccount },
      ...errors(400, 401, 403, 409),
    },
  },
  async ({ actor, body }) =>
    externalAccounts.create(actor.platformId, {
      ...(body as ExternalAccountCreate),
      customerId: undefined,
    }),
);

// GET /platform/external-accounts – the platform's own external accounts, newest first
const listPlatformExternalAccounts = endpoint(
  {
    method: 'GET',
    path: '/platform/external-accounts',
    summary: 'List platform external accounts',
    tags: ['External Accounts'],
    permission: 'VIEW',
    query: platformExternalAccountsQuery,
    responses: { 200: { description: 'Successful operation', schema: externalAccountList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query: { limit, cursor, currency } }) =>
    ok(await externalAccounts.list(actor.platformId, { owner: { kind: 'platform' }, currency }, limit, cursor)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createPlatformExternalAccount, listPlatformExternalAccounts);
