import { accepted, commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as commands from '@/lib/customers/commands';
import { errors, signedChallenge } from '@/lib/http/docs';
import { customer, customerIdParams, customerUpdate } from '@/lib/customers/schema';
import { signedRetryHeaders } from '@/lib/wallet-auth/schema';
import { isChallenge } from '@/lib/wallet-auth/presenter';

// GET /customers/{customerId} – one customer (deleted ones show isDeleted: true)
const getCustomer = commandEndpoint(
  {
    method: 'GET',
    path: '/customers/{customerId}',
    answer: ok,
    summary: 'Get customer by ID',
    tags: ['Customers'],
    params: customerIdParams,
    responses: { 200: { description: 'Successful operation', schema: customer }, ...errors(401, 403, 404) },
  },
  commands.getCustomer,
  ({ params }) => ({ customerId: params.customerId }),
);

// PATCH /customers/{customerId} – update profile fields, contact, currencies, UMA address; a
// contact tied to embedded-wallet OTP credentials changes through the signed retry (202 first)
const updateCustomer = commandEndpoint(
  {
    method: 'PATCH',
    path: '/customers/{customerId}',
    answer: (result) => (isChallenge(result) ? accepted(result) : ok(result)),
    summary: 'Update customer by ID',
    tags: ['Customers'],
    params: customerIdParams,
    body: customerUpdate,
    headers: signedRetryHeaders,
    responses: {
      200: { description: 'Customer updated', schema: customer },
      202: {
        description: 'Signed-retry challenge for a contact tied to embedded-wallet OTP credentials',
        schema: signedChallenge,
      },
      ...errors(400, 401, 403, 404, 409, 424),
    },
  },
  commands.updateCustomer,
  ({ params, body, signed }) => ({ customerId: params.customerId, body, signed }),
);

// DELETE /customers/{customerId} – mark deleted, close its internal accounts
const deleteCustomer = commandEndpoint(
  {
    method: 'DELETE',
    path: '/customers/{customerId}',
    answer: ok,
    summary: 'Delete customer by ID',
    tags: ['Customers'],
    params: customerIdParams,
    responses: { 200: { description: 'Customer deleted', schema: customer }, ...errors(401, 403, 404, 410) },
  },
  commands.removeCustomer,
  ({ params }) => ({ customerId: params.customerId }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getCustomer, updateCustomer, deleteCustomer);
