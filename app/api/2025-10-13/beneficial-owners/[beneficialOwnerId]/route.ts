import { endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import { beneficialOwner, ownerIdParams, ownerUpdate } from '@/lib/customers/beneficial-owners/schema';
import * as owners from '@/lib/customers/beneficial-owners/service';

// GET /beneficial-owners/{beneficialOwnerId} – one beneficial owner with its KYC status
const getOwner = endpoint(
  {
    method: 'GET',
    path: '/beneficial-owners/{beneficialOwnerId}',
    summary: 'Get a beneficial owner',
    tags: ['KYC/KYB Verifications'],
    permission: 'VIEW',
    params: ownerIdParams,
    responses: { 200: { description: 'Successful operation', schema: beneficialOwner }, ...errors(401, 403, 404) },
  },
  async ({ actor, params }) => ok(await owners.get(actor.platformId, params.beneficialOwnerId)),
);

// PATCH /beneficial-owners/{beneficialOwnerId} – change roles, ownership or personal details
const updateOwner = endpoint(
  {
    method: 'PATCH',
    path: '/beneficial-owners/{beneficialOwnerId}',
    summary: 'Update a beneficial owner',
    tags: ['KYC/KYB Verifications'],
    permission: 'MANAGE',
    params: ownerIdParams,
    body: ownerUpdate,
    responses: {
      200: { description: 'Beneficial owner updated successfully', schema: beneficialOwner },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, params, body }) => ok(await owners.update(actor.platformId, params.beneficialOwnerId, body)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(getOwner, updateOwner);
