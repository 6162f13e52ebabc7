import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as verifications from '@/lib/verifications/commands';
import { errors } from '@/lib/http/docs';
import { verification, verificationIdParams } from '@/lib/verifications/schema';

// GET /verifications/{verificationId} – one verification with its outstanding errors
const getVerification = commandEndpoint(
  {
    method: 'GET',
    path: '/verifications/{verificationId}',
    answer: ok,
    summary: 'Get a verification',
    tags: ['KYC/KYB Verifications'],
    params: verificationIdParams,
    responses: { 200: { description: 'Successful operation', schema: verification }, ...errors(401, 403, 404) },
  },
  verifications.get,
  ({ params }) => params,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getVerification);
