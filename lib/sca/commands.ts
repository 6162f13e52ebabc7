import { z } from 'zod';
import { defineCommand } from '../core/command';
import * as factors from './factors';
import * as login from './login';
import * as reset from './reset';
import {
  confirmRequest,
  enrollRequest,
  loginCompleteRequest,
  loginStartRequest,
  recordEventRequest,
  resetCompleteRequest,
  resetStartRequest,
} from './schema';
import { recordEvent } from './security';

// Strong Customer Authentication as commands (/sca/...): the platform acts for one of its
// customers (customerId), with VIEW to read and MANAGE to change the customer's factors, logins and
// security state. None takes an Idempotency-Key (none ever has): each is a step of a challenge
// whose repeat the domain refuses or answers alike.
const customerId = z.string();
const view = { platform: 'VIEW' } as const;
const manage = { platform: 'MANAGE' } as const;

export const listFactors = defineCommand({
  name: 'sca.factors.list',
  input: z.object({ customerId }),
  actors: view,
  idempotency: 'none',
  run: (actor, b) => factors.list(actor.platformId, b.customerId),
});

export const startEnrollment = defineCommand({
  name: 'sca.factors.enroll',
  input: z.object({ customerId, body: enrollRequest }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => factors.startEnrollment(actor.platformId, b.customerId, b.body.type),
});

export const confirmEnrollment = defineCommand({
  name: 'sca.factors.confirm',
  input: z.object({ customerId, body: confirmRequest }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => factors.confirmEnrollment(actor.platformId, b.customerId, b.body),
});

export const removeFactor = defineCommand({
  name: 'sca.factors.remove',
  input: z.object({ customerId, credentialId: z.string() }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => factors.remove(actor.platformId, b.customerId, b.credentialId),
});

export const startReset = defineCommand({
  name: 'sca.factors.reset.start',
  input: z.object({ customerId, body: resetStartRequest }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => reset.start(actor.platformId, b.customerId, b.body.factor),
});

export const resetStatus = defineCommand({
  name: 'sca.factors.reset.status',
  input: z.object({ customerId, resetId: z.string() }),
  actors: view,
  idempotency: 'none',
  run: (actor, b) => reset.status(actor.platformId, b.customerId, b.resetId),
});

export const completeReset = defineCommand({
  name: 'sca.factors.reset.complete',
  input: z.object({ customerId, resetId: z.string(), body: resetCompleteRequest }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => reset.complete(actor.platformId, b.customerId, b.resetId, b.body),
});

export const startLogin = defineCommand({
  name: 'sca.login.start',
  input: z.object({ customerId, body: loginStartRequest }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => login.start(actor.platformId, b.customerId, b.body.factor),
});

export const completeLogin = defineCommand({
  name: 'sca.login.complete',
  input: z.object({ customerId, body: loginCompleteRequest }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => login.complete(actor.platformId, b.customerId, b.body),
});

export const recordSecurityEvent = defineCommand({
  name: 'sca.record-event',
  input: z.object({ customerId, body: recordEventRequest }),
  actors: manage,
  idempotency: 'none',
  run: (actor, b) => recordEvent(actor.platformId, b.customerId, b.body.eventType),
});
