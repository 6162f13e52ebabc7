import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { internalAccount } from '@/lib/accounts/schema';
import { accountIdParams, fundRequest } from '@/lib/sandbox/schema';
import * as commands from '@/lib/sandbox/commands';

// POST /sandbox/internal-accounts/{accountId}/fund – add funds to an internal account (sandbox only)
const fund = commandEndpoint(
  {
    method: 'POST',
    path: '/sandbox/internal-accounts/{accountId}/fund',
    summary: 'Simulate funding an internal account',
    tags: ['Sandbox'],
    sandboxOnly: true,
    params: accountIdParams,
    body: fundRequest,
    answer: ok,
    responses: {
      200: { description: 'Internal account funded', schema: internalAccount },
      ...errors(400, 401, 403, 404),
    },
  },
  commands.fund,
  ({ params, raw }) => ({ accountId: params.accountId, body: raw.body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(fund);
