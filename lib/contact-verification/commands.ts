import { z } from 'zod';
import { defineCommand } from '../core/command';
import { confirmBody } from './schema';
import * as contactVerification from './service';

// Verifying a customer's email or phone as commands (POST /customers/{customerId}/verify-email,
// verify-phone and their /confirm). Sending a code is rate-limited by the service (a minute between
// codes), so a repeat is refused by itself rather than through an idempotency key.
const channel = z.enum(['EMAIL', 'PHONE']);

export const sendCode = defineCommand({
  name: 'customers.contact.send-code',
  input: z.object({ customerId: z.string(), channel }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => contactVerification.send(actor.platformId, b.customerId, b.channel),
});

export const confirmCode = defineCommand({
  name: 'customers.contact.confirm',
  input: confirmBody.extend({ customerId: z.string(), channel }),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor, b) => contactVerification.confirm(actor.platformId, b.customerId, b.channel, b.code),
});
