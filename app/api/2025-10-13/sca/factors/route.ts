import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { customerQuery, enrollRequest, enrollStart, factorList } from '@/lib/sca/schema';
import * as factors from '@/lib/sca/factors';

// GET /sca/factors – the customer's SCA factors (SMS_OTP when the phone is verified, enrolled TOTP and PASSKEY)
const listScaFactors = endpoint(
  {
    method: 'GET',
    path: '/sca/factors',
    summary: 'List enrolled SCA factors',
    tags: ['Strong Customer Authentication'],
    permission: 'VIEW',
    query: customerQuery,
    responses: {
      200: { description: "The customer's enrolled SCA factors.", schema: factorList },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  async ({ actor, query }) => ok(await factors.list(actor.platformId, query.customerId)),
);

// POST /sca/factors – start enrolling a TOTP or PASSKEY factor
const startScaFactorEnrollment = endpoint(
  {
    method: 'POST',
    path: '/sca/factors',
    summary: 'Start SCA factor enrollment',
    tags: ['Strong Customer Authentication'],
    permission: 'MANAGE',
    query: customerQuery,
    body: enrollRequest,
    responses: { 200: { description: 'Enrollment started.', schema: enrollStart }, ...errors(400, 401, 403, 404, 409) },
  },
  async ({ actor, query, body }) => ok(await factors.startEnrollment(actor.platformId, query.customerId, body.type)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(listScaFactors, startScaFactorEnrollment);
