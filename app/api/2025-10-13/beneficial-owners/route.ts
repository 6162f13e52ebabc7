import { commandEndpoint, created, ok, routes } from '@/lib/http/endpoint';
import * as owners from '@/lib/customers/beneficial-owners/commands';
import { errors } from '@/lib/http/docs';
import {
  beneficialOwner,
  beneficialOwnerList,
  ownerCreate,
  ownerListQuery,
} from '@/lib/customers/beneficial-owners/schema';

// POST /beneficial-owners – declare an owner, director or officer of a business customer
const createOwner = commandEndpoint(
  {
    method: 'POST',
    path: '/beneficial-owners',
    answer: created,
    summary: 'Create a beneficial owner',
    tags: ['KYC/KYB Verifications'],
    body: ownerCreate,
    responses: {
      201: { description: 'Beneficial owner created successfully', schema: beneficialOwner },
      ...errors(400, 401, 403, 404),
    },
  },
  owners.create,
  ({ body }) => body,
);

// GET /beneficial-owners – the owners of one business customer, newest first
const listOwners = commandEndpoint(
  {
    method: 'GET',
    path: '/beneficial-owners',
    answer: ok,
    summary: 'List beneficial owners',
    tags: ['KYC/KYB Verifications'],
    query: ownerListQuery,
    responses: {
      200: { description: 'Successful operation', schema: beneficialOwnerList },
      ...errors(400, 401, 403, 404),
    },
  },
  owners.list,
  ({ query }) => query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createOwner, listOwners);
