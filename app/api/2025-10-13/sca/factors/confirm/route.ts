import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/sca/commands';
import { confirmRequest, confirmResponse, customerQuery } from '@/lib/sca/schema';

// POST /sca/factors/confirm – finish a TOTP (secret + first code) or PASSKEY (WebAuthn credential) enrollment
const confirmScaFactorEnrollment = commandEndpoint(
  {
    method: 'POST',
    path: '/sca/factors/confirm',
    summary: 'Confirm SCA factor enrollment',
    tags: ['Strong Customer Authentication'],
    answer: ok,
    query: customerQuery,
    body: confirmRequest,
    responses: {
      200: { description: 'Factor enrolled.', schema: confirmResponse },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  commands.confirmEnrollment,
  ({ raw }) => ({ customerId: raw.query.customerId, body: raw.body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(confirmScaFactorEnrollment);
