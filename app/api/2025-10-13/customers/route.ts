import { commandEndpoint, created, ok, routes } from '@/lib/http/endpoint';
import * as commands from '@/lib/customers/commands';
import { errors } from '@/lib/http/docs';
import { customer, customerCreate, customerList, customerListQuery } from '@/lib/customers/schema';

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
const listCustomers = commandEndpoint(
  {
    method: 'GET',
    path: '/customers',
    answer: ok,
    summary: 'List customers',
    tags: ['Customers'],
    query: customerListQuery,
    responses: { 200: { description: 'Successful operation', schema: customerList }, ...errors(400, 401, 403) },
  },
  commands.listCustomers,
  ({ query }) => query,
);

export const { GET, POST, PUT, PATCH, DELETE } = routes(createCustomer, listCustomers);
