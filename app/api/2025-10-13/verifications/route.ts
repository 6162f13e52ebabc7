import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as verifications from '@/lib/verifications/commands';
import { errors } from '@/lib/http/docs';
import { verification, verificationCreate, verificationList, verificationListQuery } from '@/lib/verifications/schema';

// POST /verifications – submit a customer for KYC/KYB; answers what is still missing
const submitVerification = commandEndpoint(
  {
    method: 'POST',
    path: '/verifications',
    answer: ok,
    summary: 'Submit customer for verification',
    tags: ['KYC/KYB Verifications'],
    body: verificationCreate,
    responses: {
      200: { description: 'Verification status returned', schema: verification },
      ...errors(400, 401, 403, 404),
    },
  },
  verifications.submit,
  ({ body }) => body,
);

// GET /verifications – verifications, filtered by customer and status, newest first
const listVerifications = commandEndpoint(
  {
    method: 'GET',
    path: '/verifications',
    answer: ok,
    summary: 'List verifications',
    tags: ['KYC/KYB Verifications'],
    query: verificationListQuery,
    responses: { 200: { description: 'Successful operation', schema: verificationList }, ...errors(400, 401, 403) },
  },
  verifications.list,
  ({ query }) => query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(submitVerification, listVerifications);
