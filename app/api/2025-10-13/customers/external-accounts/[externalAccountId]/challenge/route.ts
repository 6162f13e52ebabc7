import { commandEndpoint, created, routes } from '@/lib/http/endpoint';
import * as accounts from '@/lib/external-accounts/customer-commands';
import { errors } from '@/lib/http/docs';
import { externalAccountIdParams, ownershipChallenge, ownershipChallengeRequest } from '@/lib/external-accounts/schema';

// POST /customers/external-accounts/{externalAccountId}/challenge – start (or restart) wallet ownership verification
const createExternalAccountOwnershipChallenge = commandEndpoint(
  {
    method: 'POST',
    path: '/customers/external-accounts/{externalAccountId}/challenge',
    answer: created,
    summary: 'Start an ownership verification challenge',
    tags: ['External Accounts'],
    params: externalAccountIdParams,
    body: ownershipChallengeRequest,
    responses: {
      201: { description: 'Challenge created; the method-specific material is returned.', schema: ownershipChallenge },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  accounts.startOwnershipChallenge,
  ({ params, body }) => ({ externalAccountId: params.externalAccountId, method: body.method }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createExternalAccountOwnershipChallenge);
