import { commandEndpoint, created, endpoint, ok, routes } from '@/lib/http/endpoint';
import * as commands from '@/lib/customers/commands';
import { errors } from '@/lib/http/docs';
import { customer, customerCreate, customerList, customerListQuery } from '@/lib/customers/schema';
import * as customers from '@/lib/customers/service';

// POST /customers – register an individual or business customer; opens its internal accounts
const createCustomer = commandEndpoint(
  {
    method: 'POST',
    path: '/customers',
    summary: 'Add a new customer',
    tags: ['Customers'],
    body: customerCreate,
    answer: created,
    responses: { 201: { description: 'Customer created', schema: customer }, ...errors(400, 401, 403, 409) },
  },
  commands.createCustomer,
  ({ body }) => body,
);

// GET /customers – list customers with filters, newest first
const listCustomers = endpoint(
  {
    method: 'GET',
    path: '/customers',
    summary: 'List customers',
    tags: ['Customers'],
    permission: 'VIEW',
    query: customerListQuery,
    responses: { 200: { description: 'Successful operation', schema: customerList }, ...errors(400, 401, 403) },
  },
  async ({
    actor,
    query: { limit, cursor, isIncludingDeleted, createdAfter, createdBefore, updatedAfter, updatedBefore, ...f },
  }) =>
    ok(
      await customers.list(
        actor.platformId,
        {
          ...f,
          includeDeleted: isIncludingDeleted,
          createdAfter: createdAfter ? new Date(createdAfter) : undefined,
          createdBefore: createdBefore ? new Date(createdBefore) : undefined,
          updatedAfter: updatedAfter ? new Date(updatedAfter) : undefined,
          updatedBefore: updatedBefore ? new Date(updatedBefore) : undefined,
        },
        limit,
        cursor,
      ),
    ),
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createCustomer, listCustomers);
