import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { internalAccount } from '@/lib/accounts/schema';
import { accountIdParams, fundRequest } from '@/lib/sandbox/schema';
import { fundInternalAccount } from '@/lib/sandbox/fund';

// POST /sandbox/internal-accounts/{accountId}/fund – add funds to an internal account (sandbox only)
const fund = endpoint(
  {
    method: 'POST',
    path: '/sandbox/internal-accounts/{accountId}/fund',
    summary: 'Simulate funding an internal account',
    tags: ['Sandbox'],
    permission: 'TRANSACT',
    sandboxOnly: true,
    params: accountIdParams,
    body: fundRequest,
    idempotent: true,
    answer: ok,
    responses: {
      200: { description: 'Internal account funded', schema: internalAccount },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params, body }) => fundInternalAccount(actor.platformId, params.accountId, body.amount),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(fund);
