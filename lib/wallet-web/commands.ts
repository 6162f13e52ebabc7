import { z } from 'zod';
import { defineCommand } from '../core/command';
import type { Actor } from '../core/context';
import { DomainError, notFound } from '../core/errors';
import { isId } from '../core/ids';
import { db } from '../core/db';
import { parseBodyOrThrow } from '../core/validation';
import * as accounts from '../accounts/service';
import * as cards from '../cards/service';
import * as customers from '../customers/service';
import * as externalAccounts from '../external-accounts/service';
import { executeQuote } from '../payments/quotes/execute';
import { createQuote } from '../payments/quotes/create';
import { quoteRequest } from '../payments/quotes/schema';
import { getQuote } from '../payments/quotes/service';
import { walletSignatureForQuote } from '../payments/quotes/wallet';
import * as transactions from '../payments/transactions/service';
import { lookupUma } from '../payments/uma/lookups';
import { payeeLabel } from './payee';

// What a signed-in wallet holder does from the wallet pages (app/wallet/api), as the customer
// actor of their wallet session: every command keeps to that customer's own objects (their
// customer record, their wallet account, their external accounts, quotes paid from their wallet),
// whatever ids the browser sends. Credential and session commands are in ./credential-commands.ts.
export type CustomerActor = Extract<Actor, { kind: 'customer' }>;
const customer = { customer: true } as const;

/** The customer actor a command runs as (the runner admitted only that kind). */
export function holder(actor: Actor): CustomerActor {
  if (actor.kind !== 'customer') throw new DomainError('FORBIDDEN', 'This is a wallet holder’s operation');
  return actor;
}

const cursor = z.string().max(512).optional();

/** The customer, their accounts and balances. */
export const walletOverview = defineCommand({
  name: 'wallet.me',
  input: z.object({}),
  actors: customer,
  idempotency: 'none',
  run: async (actor) => {
    const a = holder(actor);
    const [c, list] = await Promise.all([
      customers.get(a.platformId, a.customerId),
      accounts.list(a.platformId, { owner: 'customers', customerId: a.customerId }, 100),
    ]);
    return { customer: c, accounts: list.data };
  },
});

export const listDestinations = defineCommand({
  name: 'wallet.destinations.list',
  input: z.object({}),
  actors: customer,
  idempotency: 'none',
  run: async (actor) => {
    const a = holder(actor);
    const page = await externalAccounts.list(
      a.platformId,
      { owner: { kind: 'customers', customerId: a.customerId } },
      100,
    );
    // Each named by its holder, as the review screen and the history name the payee.
    return {
      ...page,
      data: page.data.map((x) => ({ ...x, payee: payeeLabel(x.accountInfo as Record<string, unknown>, x.id) })),
    };
  },
});

export const listTransactions = defineCommand({
  name: 'wallet.transactions.list',
  input: z.object({ cursor }),
  actors: customer,
  idempotency: 'none',
  run: (actor, q) => {
    const a = holder(actor);
    return transactions.list(a.platformId, { customerId: a.customerId }, 20, 'desc', q.cursor);
  },
});

export const listCards = defineCommand({
  name: 'wallet.cards.list',
  input: z.object({}),
  actors: customer,
  idempotency: 'none',
  run: (actor) => {
    const a = holder(actor);
    return cards.list(a.platformId, { cardholderId: a.customerId }, 20, 'desc');
  },
});

const walletQuote = z
  .object({
    destination: z.object({
      accountId: z.string().max(100).optional(),
      umaAddress: z.string().min(1).max(255).optional(),
    }),
    amount: z.string().regex(/^[1-9][0-9]{0,19}$/, 'must be a positive whole number of the smallest unit'),
    description: z.string().max(500).optional(),
  })
  .refine((b) => (b.destination.accountId === undefined) !== (b.destination.umaAddress === undefined), {
    path: ['destination'],
    message: 'must name an accountId or a umaAddress',
  });

/**
 * A quote paid from the customer's own wallet (the source is never the browser's to choose), to one
 * of their own external accounts or to a UMA address (looked up for this customer first, with the
 * payer data the receiver asks for from the customer's own record).
 */
export const createWalletQuote = defineCommand({
  name: 'wallet.quotes.create',
  input: walletQuote,
  actors: customer,
  idempotency: 'optional',
  run: async (actor, b) => {
    const a = holder(actor);
    const { accountId, umaAddress } = b.destination;
    const request: Record<string, unknown> = {
      source: { sourceType: 'ACCOUNT', accountId: a.accountId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: BigInt(b.amount),
      ...(b.description ? { description: b.description } : {}),
    };
    await refuseAboveBalance(a, BigInt(b.amount));
    if (accountId !== undefined) {
      const owner = { kind: 'customers' as const, customerId: a.customerId };
      if (!isId('ExternalAccount', accountId))
        throw new DomainError('REFERENCE_NOT_FOUND', 'No such external account of yours');
      const target = await externalAccounts.getOwned(a.platformId, accountId, owner);
      if (target.status !== 'ACTIVE')
        throw new DomainError('INVALID_INPUT', destinationRefusal(target.status), {
          reason: 'DESTINATION_NOT_ACTIVE',
          status: target.status,
        });
      request.destination = { destinationType: 'ACCOUNT', accountId };
    } else {
      const lookup = await lookupUma(a.platformId, umaAddress!, { customerId: a.customerId });
      const info = await payerData(a, lookup.requiredPayerDataFields ?? []);
      request.lookupId = lookup.lookupId;
      request.destination = { destinationType: 'UMA_ADDRESS', umaAddress };
      if (Object.keys(info).length) request.senderCustomerInfo = info;
    }
    return createQuote(a.platformId, parseBodyOrThrow(quoteRequest, request));
  },
});

/** Why one of the holder's own accounts cannot be paid, in their words (a deleted one is INACTIVE). */
const destinationRefusal = (status: string) =>
  status === 'INACTIVE'
    ? 'That account was closed: it cannot receive payments'
    : `That account cannot receive payments yet (${status.toLowerCase().replace(/_/g, ' ')})`;

/**
 * A wallet quote locks the sending side, so its total is the amount typed: one above what the
 * wallet holds would only fail at execution, after the holder reviewed and confirmed it.
 */
async function refuseAboveBalance(a: CustomerActor, amount: bigint) {
  const wallet = await accounts.get(a.platformId, a.accountId, db());
  const available = BigInt(wallet.balance.amount);
  if (amount > available)
    throw new DomainError('INSUFFICIENT_FUNDS', 'The amount is more than the wallet holds', {
      reason: 'INSUFFICIENT_FUNDS',
      available,
      currency: wallet.balance.currency.code,
    });
}

/** What the receiver asks to know about the payer, from the customer's own record (the fields it has). */
async function payerData(a: CustomerActor, fields: { name: string }[]): Promise<Record<string, unknown>> {
  if (!fields.length) return {};
  const c = (await customers.get(a.platformId, a.customerId)) as Record<string, unknown> & {
    businessInfo?: { legalName?: string };
  };
  const known: Record<string, unknown> = {
    FULL_NAME: c.fullName ?? c.businessInfo?.legalName,
    EMAIL: c.email,
    PHONE_NUMBER: c.phoneNumber,
    BIRTH_DATE: c.birthDate,
    NATIONALITY: c.nationality,
    POSTAL_ADDRESS: c.address,
  };
  return Object.fromEntries(fields.filter((f) => known[f.name] !== undefined).map((f) => [f.name, known[f.name]]));
}

/**
 * Executes one of the customer's own wallet quotes with the stamp the browser made over its
 * payloadToSign; a quote paid from another account is not found.
 */
export const executeWalletQuote = defineCommand({
  name: 'wallet.quotes.execute',
  input: z.object({ quoteId: z.string().max(100), stamp: z.string().max(16_384).nullable().default(null) }),
  actors: customer,
  idempotency: 'optional',
  run: async (actor, b) => {
    const a = holder(actor);
    const missing = () => notFound('QUOTE_NOT_FOUND', `Quote ${b.quoteId}`);
    if (!isId('Quote', b.quoteId)) throw missing();
    const q = (await getQuote(a.platformId, b.quoteId)) as { source?: { accountId?: string } };
    if (q.source?.accountId !== a.accountId) throw missing();
    return executeQuote(a.platformId, b.quoteId, walletSignatureForQuote(b.stamp));
  },
});
