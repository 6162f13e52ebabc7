import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { verification, verificationCreate, verificationList, verificationListQuery } from '@/lib/verifications/schema';
import * as verifications from '@/lib/verifications/service';

// POST /verifications – submit a customer for KYC/KYB; answers what is still missing
const submitVerification = endpoint(
  {
    method: 'POST',
    path: '/verifications',
    summary: 'Submit customer for verification',
    tags: ['KYC/KYB Verifications'],
    permission: 'MANAGE',
    body: verificationCreate,
    responses: {
      200: { description: 'Verification status returned', schema: verification },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, body }) => ok(await verifications.submit(actor.platformId, body.customerId)),
);

// GET /verifications – verifications, filtered by customer and status, newest first
const listVerifications = endpoint(
  {
    method: 'GET',
    path: '/verifications',
    summary: 'List verifications',
    tags: ['KYC/KYB Verifications'],
    permission: 'VIEW',
    query: verificationListQuery,
    responses: { 200: { description: 'Successful operation', schema: verificationList }, ...errors(400, 401, 403) },
  },
  async ({ actor, query }) =>
    ok(
      await verifications.list(
        actor.platformId,
        { customerId: query.customerId, status: query.verificationStatus },
        query.limit,
        query.cursor,
      ),
    ),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(submitVerification, listVerifications);
