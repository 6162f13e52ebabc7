import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { apiTokenRotation, tokenIdParams, tokenRotate } from '@/lib/tokens/schema';
import * as commands from '@/lib/tokens/commands';

// POST /tokens/{tokenId}/rotate – a new secret (shown once); the old one works for an overlap window
const rotateToken = commandEndpoint(
  {
    method: 'POST',
    path: '/tokens/{tokenId}/rotate',
    summary: 'Rotate an API token secret',
    description:
      "Corridor extension. Issues a new client secret for the token (in this response only) and keeps the replaced secret working for `overlapSeconds` (default 86400, at most 30 days; 0 revokes it at once), on the platform's clock, so clients can switch without an outage. One replaced secret at a time: rotating again within the window ends the earlier one. Needs MANAGE and every permission the token holds.",
    tags: ['API Tokens'],
    extension: true,
    params: tokenIdParams,
    body: tokenRotate,
    answer: ok,
    responses: {
      200: { description: 'Secret rotated', schema: apiTokenRotation },
      ...errors(400, 401, 403, 404),
    },
  },
  commands.rotateToken,
  ({ params, body }) => ({ tokenId: params.tokenId, body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(rotateToken);
