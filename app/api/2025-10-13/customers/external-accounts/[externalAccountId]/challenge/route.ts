import { created, endpoint, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { externalAccountIdParams, ownershipChallenge, ownershipChallengeRequest } from '@/lib/external-accounts/schema';
import * as ownership from '@/lib/external-accounts/ownership';

// POST /customers/external-accounts/{externalAccountId}/challenge – start (or restart) wallet ownership verification
const createExternalAccountOwnershipChallenge = endpoint(
  {
    method: 'POST',
    path: '/customers/external-accounts/{externalAccountId}/challenge',
    summary: 'Start an ownership verification challenge',
    tags: ['External Accounts'],
    permission: 'MANAGE',
    params: externalAccountIdParams,
    body: ownershipChallengeRequest,
    responses: {
      201: { description: 'Challenge created; the method-specific material is returned.', schema: ownershipChallenge },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  async ({ actor, params, body }) =>
    created(
      await ownership.startChallenge(actor.platformId, params.externalAccountId, { kind: 'customers' }, body.method),
    ),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createExternalAccountOwnershipChallenge);
