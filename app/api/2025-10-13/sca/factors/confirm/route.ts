import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { confirmRequest, confirmResponse, customerQuery } from '@/lib/sca/schema';
import * as factors from '@/lib/sca/factors';

// POST /sca/factors/confirm – finish a TOTP (secret + first code) or PASSKEY (WebAuthn credential) enrollment
const confirmScaFactorEnrollment = endpoint(
  {
    method: 'POST',
    path: '/sca/factors/confirm',
    summary: 'Confirm SCA factor enrollment',
    tags: ['Strong Customer Authentication'],
    permission: 'MANAGE',
    query: customerQuery,
    body: confirmRequest,
    responses: {
      200: { description: 'Factor enrolled.', schema: confirmResponse },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  async ({ actor, query, body }) => ok(await factors.confirmEnrollment(actor.platformId, query.customerId, body)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(confirmScaFactorEnrollment);
