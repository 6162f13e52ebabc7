import { commandEndpoint, ok, routes } from '@/lib/http/endpoint';
import * as owners from '@/lib/customers/beneficial-owners/commands';
import { errors } from '@/lib/http/docs';
import { beneficialOwner, ownerIdParams, ownerUpdate } from '@/lib/customers/beneficial-owners/schema';

// GET /beneficial-owners/{beneficialOwnerId} – one beneficial owner with its KYC status
const getOwner = commandEndpoint(
  {
    method: 'GET',
    path: '/beneficial-owners/{beneficialOwnerId}',
    answer: ok,
    summary: 'Get a beneficial owner',
    tags: ['KYC/KYB Verifications'],
    params: ownerIdParams,
    responses: { 200: { description: 'Successful operation', schema: beneficialOwner }, ...errors(401, 403, 404) },
  },
  owners.get,
  ({ params }) => params,
);

// PATCH /beneficial-owners/{beneficialOwnerId} – change roles, ownership or personal details
const updateOwner = commandEndpoint(
  {
    method: 'PATCH',
    path: '/beneficial-owners/{beneficialOwnerId}',
    answer: ok,
    summary: 'Update a beneficial owner',
    tags: ['KYC/KYB Verifications'],
    params: ownerIdParams,
    body: ownerUpdate,
    responses: {
      200: { description: 'Beneficial owner updated successfully', schema: beneficialOwner },
      ...errors(400, 401, 403, 404),
    },
  },
  owners.update,
  ({ params, body }) => ({ beneficialOwnerId: params.beneficialOwnerId, body }),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getOwner, updateOwner);
