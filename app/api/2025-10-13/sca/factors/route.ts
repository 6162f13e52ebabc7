import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import * as commands from '@/lib/sca/commands';
import { customerQuery, enrollRequest, enrollStart, factorList } from '@/lib/sca/schema';

// GET /sca/factors – the customer's SCA factors (SMS_OTP when the phone is verified, enrolled TOTP and PASSKEY)
const listScaFactors = commandEndpoint(
  {
    method: 'GET',
    path: '/sca/factors',
    summary: 'List enrolled SCA factors',
    tags: ['Strong Customer Authentication'],
    answer: ok,
    query: customerQuery,
    responses: {
      200: { description: "The customer's enrolled SCA factors.", schema: factorList },
      ...errors(400, 401, 403, 404, 409),
    },
  },
  commands.listFactors,
  ({ raw }) => raw.query,
);

// POST /sca/factors – start enrolling a TOTP or PASSKEY factor
const startScaFactorEnrollment = commandEndpoint(
  {
    method: 'POST',
    path: '/sca/factors',
    summary: 'Start SCA factor enrollment',
    tags: ['Strong Customer Authentication'],
    answer: ok,
    query: customerQuery,
    body: enrollRequest,
    responses: { 200: { description: 'Enrollment started.', schema: enrollStart }, ...errors(400, 401, 403, 404, 409) },
  },
  commands.startEnrollment,
  ({ raw }) => ({ customerId: raw.query.customerId, body: raw.body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(listScaFactors, startScaFactorEnrollment);
