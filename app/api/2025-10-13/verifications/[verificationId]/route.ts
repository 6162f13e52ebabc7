import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { verification, verificationIdParams } from '@/lib/verifications/schema';
import * as verifications from '@/lib/verifications/service';

// GET /verifications/{verificationId} – one verification with its outstanding errors
const getVerification = endpoint(
  {
    method: 'GET',
    path: '/verifications/{verificationId}',
    summary: 'Get a verification',
    tags: ['KYC/KYB Verifications'],
    permission: 'VIEW',
    params: verificationIdParams,
    responses: { 200: { description: 'Successful operation', schema: verification }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await verifications.get(actor.platformId, params.verificationId)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getVerification);
