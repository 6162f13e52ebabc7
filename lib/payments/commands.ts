import { z } from 'zod';
import { defineCommand } from '../core/command';
import { createQuote as create } from './quotes/create';
import { executeQuote as execute } from './quotes/execute';
import { quoteRequest } from './quotes/schema';
import { walletSignatureForQuote } from './quotes/wallet';
import { transferIn as transferInBody, transferOut as transferOutBody } from './transfers/schema';
import * as transfers from './transfers/service';

// The platform's money operations as commands (POST /quotes, /quotes/{id}/execute, /transfer-out,
// /transfer-in): each moves money or creates something, so each is exactly-once per idempotency
// key; the platform acts with an API token holding TRANSACT. Agents reach the same engine through
// lib/agents/commands.ts (their policy in between), wallet holders through lib/wallet-web/commands.ts.
const transact = { platform: 'TRANSACT' } as const;

export const createQuote = defineCommand({
  name: 'quotes.create',
  input: quoteRequest,
  actors: transact,
  idempotency: 'optional',
  run: (actor, body) => create(actor.platformId, body),
});

export const executeQuote = defineCommand({
  name: 'quotes.execute',
  input: z.object({ quoteId: z.string(), stamp: z.string().nullable().default(null) }),
  actors: transact,
  idempotency: 'optional',
  run: (actor, b) => execute(actor.platformId, b.quoteId, walletSignatureForQuote(b.stamp)),
});

export const transferOut = defineCommand({
  name: 'transfers.out',
  input: transferOutBody,
  actors: transact,
  idempotency: 'optional',
  run: (actor, body) => transfers.transferOut(actor.platformId, body),
});

export const transferIn = defineCommand({
  name: 'transfers.in',
  input: transferInBody,
  actors: transact,
  idempotency: 'optional',
  run: (actor, body) => transfers.transferIn(actor.platformId, body),
});
