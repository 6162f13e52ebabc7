import { z } from 'zod';
import { defineCommand } from '../core/command';
import { createQuote as create } from './quotes/create';
import { executeQuote as execute } from './quotes/execute';
import { quoteIdParams, quoteRequest } from './quotes/schema';
import { authorize, resend } from './quotes/sca';
import { getQuote as readQuote } from './quotes/service';
import { cancelRequest, confirmRequest, transactionIdParams, transactionListQuery } from './transactions/schema';
import * as transactions from './transactions/service';
import { lookupExternalAccount, lookupUma } from './uma/lookups';
import { lookupQuery } from './uma/schema';
import { walletSignatureForQuote } from './quotes/wallet';
import { transferIn as transferInBody, transferOut as transferOutBody } from './transfers/schema';
import * as transfers from './transfers/service';

// The platform's money operations as commands (POST /quotes, /quotes/{id}/execute, /transfer-out,
// /transfer-in; the quote's reads and SCA and the transactions' reads and follow-ups below): each moves money or creates something, so each is exactly-once per idempotency
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

export const getQuote = defineCommand({
  name: 'quotes.get',
  input: quoteIdParams,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => readQuote(actor.platformId, b.quoteId),
});

/** Proof for a quote's Strong Customer Authentication challenge: the SMS code, or a passkey assertion. */
export const scaAuthorization = z.object({
  code: z.string().max(16).nullable().optional(),
  passkeyAssertion: z.record(z.string(), z.unknown()).nullable().optional(),
  origin: z.string().nullable().optional(),
  endUserIpAddress: z.string().max(45).nullable().optional(),
});

export const authorizeQuote = defineCommand({
  name: 'quotes.authorize',
  input: z.object({ quoteId: z.string(), body: scaAuthorization }),
  actors: transact,
  idempotency: 'none',
  run: (actor, b) => authorize(actor.platformId, b.quoteId, b.body),
});

/** Sending the code again is rate-limited by the challenge itself, not by a key. */
export const resendQuoteCode = defineCommand({
  name: 'quotes.authorize.resend',
  input: quoteIdParams,
  actors: transact,
  idempotency: 'none',
  run: (actor, b) => resend(actor.platformId, b.quoteId),
});

// Transactions (GET /transactions, /transactions/{id}, POST .../cancel and .../confirm); approving
// and rejecting a pending payment are lib/agents/approval-commands.ts (an agent's payment is
// decided through its action).
export const listTransactions = defineCommand({
  name: 'transactions.list',
  input: transactionListQuery,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, { limit, cursor, sortOrder, startDate, endDate, ...f }) =>
    transactions.list(
      actor.platformId,
      {
        ...f,
        startDate: startDate ? new Date(startDate) : undefined,
        endDate: endDate ? new Date(endDate) : undefined,
      },
      limit,
      sortOrder,
      cursor,
    ),
});

export const getTransaction = defineCommand({
  name: 'transactions.get',
  input: transactionIdParams,
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, b) => transactions.getAny(actor.platformId, b.transactionId),
});

export const cancelTransaction = defineCommand({
  name: 'transactions.cancel',
  input: z.object({ transactionId: z.string(), body: cancelRequest }),
  actors: transact,
  idempotency: 'optional',
  run: (actor, b) => transactions.cancel(actor.platformId, b.transactionId, b.body.reason),
});

export const confirmTransaction = defineCommand({
  name: 'transactions.confirm',
  input: z.object({ transactionId: z.string(), body: confirmRequest }),
  actors: transact,
  idempotency: 'none',
  run: (actor, b) => transactions.confirmReceipt(actor.platformId, b.transactionId, b.body.receiptDeliveryConfirmedAt),
});

// Receiver lookups (GET /receiver/uma/{address}, /receiver/external-account/{id}): what the
// receiver accepts, and the lookupId a quote then names.
export const lookupReceiverUma = defineCommand({
  name: 'receiver.uma.lookup',
  input: lookupQuery.extend({ receiverUmaAddress: z.string() }),
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, { receiverUmaAddress, ...q }) => lookupUma(actor.platformId, receiverUmaAddress, q),
});

export const lookupReceiverAccount = defineCommand({
  name: 'receiver.external-account.lookup',
  input: lookupQuery.extend({ accountId: z.string() }),
  actors: { platform: 'VIEW' },
  idempotency: 'none',
  run: (actor, { accountId, ...q }) => lookupExternalAccount(actor.platformId, accountId, q),
});
