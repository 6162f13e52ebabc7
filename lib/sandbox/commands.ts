import { z } from 'zod';
import { defineCommand } from '../core/command';
import { requireSandbox } from '../core/sandbox-only';
import { sandboxReceive } from '../payments/uma/receive';
import { sendTestWebhook } from '../webhooks/service';
import { advanceClock } from './clock';
import { fundInternalAccount } from './fund';
import { accountIdParams, clockAdvanceRequest, fundRequest, sendRequest, umaReceiveRequest } from './schema';
import { sandboxSend } from './send';

// The sandbox's operations as commands (/sandbox/...): each refuses outside sandbox mode. The ones
// that move money or time take an Idempotency-Key. Advancing the clock honours one too, so a retried
// advance (a timeout, a double click) moves the clock once: the repeat waits for the first and gets
// its answer. That answer (the jobs that ran) exists only after the effect, so it is stored when the
// advance finishes, not in the transaction that moves the clock: should the process die between
// the two, the key is released with the dead process and a retry advances again.
export const advance = defineCommand({
  name: 'sandbox.clock.advance',
  input: clockAdvanceRequest,
  actors: { platform: 'TRANSACT' },
  idempotency: 'optional',
  run: (actor, b) => {
    requireSandbox();
    return advanceClock(actor.platformId, b.seconds);
  },
});

export const fund = defineCommand({
  name: 'sandbox.internal-accounts.fund',
  input: accountIdParams.extend({ body: fundRequest }),
  actors: { platform: 'TRANSACT' },
  idempotency: 'optional',
  run: (actor, b) => {
    requireSandbox();
    return fundInternalAccount(actor.platformId, b.accountId, b.body.amount);
  },
});

export const send = defineCommand({
  name: 'sandbox.send',
  input: sendRequest,
  actors: { platform: 'TRANSACT' },
  idempotency: 'optional',
  run: (actor, b) => {
    requireSandbox();
    return sandboxSend(actor.platformId, b);
  },
});

export const umaReceive = defineCommand({
  name: 'sandbox.uma.receive',
  input: umaReceiveRequest,
  actors: { platform: 'TRANSACT' },
  idempotency: 'optional',
  run: (actor, b) => {
    requireSandbox();
    return sandboxReceive(actor.platformId, b);
  },
});

export const testWebhook = defineCommand({
  name: 'sandbox.webhooks.test',
  input: z.object({}),
  actors: { platform: 'MANAGE' },
  idempotency: 'none',
  run: (actor) => {
    requireSandbox();
    return sendTestWebhook(actor.platformId);
  },
});
