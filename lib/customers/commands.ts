import { z } from 'zod';
import { defineCommand } from '../core/command';
import { notFound } from '../core/errors';
import { customerCreate } from './schema';
import * as customers from './service';

// The platform's customer records as commands (POST /customers, GET and DELETE
// /customers/{customerId}). A signed-in wallet holder may read their own record, and no other.
export const createCustomer = defineCommand({
  name: 'customers.create',
  input: customerCreate,
  actors: { platform: 'MANAGE' },
  idempotency: 'optional',
  run: (actor, body) => customers.create(actor.platformId, body),
});

export const getCustomer = defineCommand({
  name: 'customers.get',
  input: z.object({ customerId: z.string() }),
  actors: { platform: 'VIEW', customer: true },
  idempotency: 'none',
  run: (actor, b) => {
    if (actor.kind === 'customer' && actor.customerId !== b.customerId)
      throw notFound('USER_NOT_FOUND', `Customer ${b.customerId}`);
    return customers.get(actor.platformId, b.customerId);
  },
});

export const removeCustomer = defineCommand({
  name: 'customers.remove',
  input: z.object({ customerId: z.string() }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => customers.remove(actor.platformId, b.customerId),
});
