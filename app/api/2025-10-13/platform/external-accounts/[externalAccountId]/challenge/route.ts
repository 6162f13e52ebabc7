import { commandEndpoint, created, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { externalAccountIdParams, ownershipChallenge, ownershipChallengeRequest } from '@/lib/external-accounts/schema';
import * as commands from '@/lib/external-accounts/platform-commands';

// POST /platform/external-accounts/{externalAccountId}/challenge – start (or restart) wallet ownership verification
const createPlatformExternalAccountOwnershipChallenge = commandEndpoint(
  {
    method: 'POST',
    path: '/platform/external-accounts/{externalAccountId}/challenge',
    summary: 'Start an ownership verification challenge',
    tags: ['External Accounts'],
    answer: created,
    params: externalAccountIdParams,
    body: ownershipChallengeRequest,
    responses: {
      201: { description: 'Challenge created; the method-specific material is returned.', schema: ownershipChallenge },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  commands.startPlatformOwnershipChallenge,
  ({ params, body }) => ({ externalAccountId: params.externalAccountId, body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createPlatformExternalAccountOwnershipChallenge);
