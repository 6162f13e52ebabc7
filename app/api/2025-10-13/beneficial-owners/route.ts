import { created, endpoint, ok, routes } from '@/lib/http/endpoint';
import { errors } from '@/lib/http/docs';
import {
  beneficialOwner,
  beneficialOwnerList,
  ownerCreate,
  ownerListQuery,
} from '@/lib/customers/beneficial-owners/schema';
import * as owners from '@/lib/customers/beneficial-owners/service';

// POST /beneficial-owners – declare an owner, director or officer of a business customer
const createOwner = endpoint(
  {
    method: 'POST',
    path: '/beneficial-owners',
    summary: 'Create a beneficial owner',
    tags: ['KYC/KYB Verifications'],
    permission: 'MANAGE',
    body: ownerCreate,
    responses: {
      201: { description: 'Beneficial owner created successfully', schema: beneficialOwner },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, body }) => created(await owners.create(actor.platformId, body)),
);

// GET /beneficial-owners – the owners of one business customer, newest first
const listOwners = endpoint(
  {
    method: 'GET',
    path: '/beneficial-owners',
    summary: 'List beneficial owners',
    tags: ['KYC/KYB Verifications'],
    permission: 'VIEW',
    query: ownerListQuery,
    responses: {
      200: { description: 'Successful operation', schema: beneficialOwnerList },
      ...errors(400, 401, 403, 404),
    },
  },
  async ({ actor, query }) => ok(await owners.list(actor.platformId, query.customerId, query.limit, query.cursor)),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createOwner, listOwners);
