import { z } from 'zod';
import { defineCommand } from '../core/command';
import { notFound } from '../core/errors';
import { signedRequest } from '../core/fields';
import { endUserTerms } from './profile';
import { customerCreate, customerListQuery, customerUpdate } from './schema';
import * as customers from './service';

// The platform's customer records as commands (/customers, /customers/{customerId},
// /customers/end-user-terms). A signed-in wallet holder may read their own record, and no other.
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

export const listCustomers = defineCommand({
  name: 'customers.list',
  // The query's own schema, its flag already a boolean (the query string spells it true/false).
  input: customerListQuery.extend({ isIncludingDeleted: z.boolean().optional() }),
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, { limit, cursor, isIncludingDeleted, createdAfter, createdBefore, updatedAfter, updatedBefore, ...f }) =>
    customers.list(
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
});

/** A contact tied to embedded-wallet OTP credentials changes on the holder's signed retry (a challenge first). */
export const updateCustomer = defineCommand({
  name: 'customers.update',
  input: z.object({ customerId: z.string(), body: customerUpdate, signed: signedRequest }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => customers.update(actor.platformId, b.customerId, b.body, b.signed),
});

export const getEndUserTerms = defineCommand({
  name: 'customers.end-user-terms',
  input: z.object({}),
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: async () => endUserTerms(),
});
