import { z } from 'zod';
import { defineCommand } from '../core/command';
import { db } from '../core/db';
import { notFound } from '../core/errors';
import * as accounts from '../accounts/service';
import * as externalAccounts from '../external-accounts/service';
import { getQuote } from '../payments/quotes/service';
import * as transactions from '../payments/transactions/service';
import { listEvents } from '../webhooks/log-repository';
import { holder, type CustomerActor } from './commands';
import { payeeLabel } from './payee';

// The wallet's history: what moved or is moving money in one of the holder's accounts, each entry
// naming the other side. A quote's transaction exists from the moment the quote is made; until it
// is executed it is an offer, so refused and expired quotes are never listed (the `moneyMoved`
// filter). Amounts are the ledger's: what left or reached the account, in its currency.
const customer = { customer: true } as const;

type Json = Record<string, unknown> & {
  id: string;
  type: string;
  status: string;
  createdAt: Date | string;
};
type Money = { amount: bigint; currency: { code: string } };

export interface HistoryEntry {
  id: string;
  kind: 'SENT' | 'RECEIVED' | 'CARD_PURCHASE' | 'CARD_REFUND' | 'REFUND';
  status: string;
  /** Signed: negative when money left the account. */
  amount: bigint;
  currency: string;
  counterparty: string;
  description: string | null;
  failureReason: string | null;
  createdAt: Date | string;
  /** A card purchase's (partial) refund, a payment's refund: what came back. */
  refunded: bigint;
}

/** One of the holder's own internal accounts (the wallet when none is named). */
async function ownAccount(a: CustomerActor, accountId: string | undefined) {
  const id = accountId ?? a.accountId;
  const owned = await accounts.customerAccounts(a.platformId, a.customerId, db());
  const row = owned.find((r) => r.id === id);
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `Account ${id}`);
  return { row, owned };
}

/** The other side of a transaction, named as the holder knows it. */
async function counterpartyOf(a: CustomerActor, t: Json, own: { id: string; currency: string; type: string }[]) {
  const name = (acc: Record<string, unknown> | undefined) => {
    if (!acc) return null;
    const ownAcc = own.find((o) => o.id === acc.accountId);
    if (ownAcc) return ownAcc.type === 'EMBEDDED_WALLET' ? 'Your wallet' : `Your ${ownAcc.currency} account`;
    if (typeof acc.umaAddress === 'string') return acc.umaAddress;
    return null;
  };
  if (t.type === 'CARD') return String((t.merchant as { descriptor?: string })?.descriptor ?? 'Card purchase');
  const side = (t.type === 'INCOMING' ? t.source : t.destination) as Record<string, unknown> | undefined;
  const known = name(side);
  if (known) return known;
  if (t.type === 'OUTGOING' && typeof side?.accountId === 'string') {
    try {
      const ext = await externalAccounts.get(a.platformId, side.accountId, {
        kind: 'customers',
        customerId: a.customerId,
      });
      return payeeLabel(ext.accountInfo as Record<string, unknown>, ext.id);
    } catch {
      return 'A bank account (removed)';
    }
  }
  const info = t.counterpartyInformation as Record<string, unknown> | undefined;
  if (typeof info?.FULL_NAME === 'string') return info.FULL_NAME;
  return t.type === 'INCOMING' ? 'Deposit' : 'Payment';
}

function entryOf(t: Json, accountId: string, counterparty: string): HistoryEntry {
  if (t.type === 'CARD') {
    const credit = t.direction === 'CREDIT';
    const settled = (t.settledAmount as Money).amount;
    const amount = settled > 0n ? settled : (t.authorizedAmount as Money).amount;
    return {
      id: t.id,
      kind: credit ? 'CARD_REFUND' : 'CARD_PURCHASE',
      status: t.status,
      amount: credit ? amount : -amount,
      currency: (t.authorizedAmount as Money).currency.code,
      counterparty,
      description: null,
      failureReason: null,
      createdAt: t.createdAt,
      refunded: (t.refundedAmount as Money).amount,
    };
  }
  // A transfer between two of the holder's own accounts is outgoing for one, incoming for the other.
  const source = t.source as { accountId?: string } | undefined;
  const out = t.type === 'OUTGOING' && source?.accountId === accountId;
  const money = (out ? t.sentAmount : (t.receivedAmount ?? t.sentAmount)) as Money;
  const back = out ? refundedAmount(t) : 0n;
  return {
    id: t.id,
    kind: out ? 'SENT' : 'RECEIVED',
    status: t.status,
    amount: out ? -money.amount : money.amount,
    currency: money.currency.code,
    counterparty,
    description: typeof t.description === 'string' ? t.description : null,
    failureReason: typeof t.failureReason === 'string' ? t.failureReason : null,
    createdAt: t.createdAt,
    refunded: back ?? 0n,
  };
}

type Refund = { status: string; initiatedAt: string; settledAt?: string; reference: string };

/**
 * What a payment's refund brought back to the account it left (lib/payments/postings.ts): all of
 * it when the payment failed before paying out (the hold released), the principal less the fees
 * when a payout came back. Null while there is no refund or it failed (nothing came back).
 */
function refundedAmount(t: Json): bigint | null {
  const refund = t.refund as Refund | undefined;
  if (!refund || refund.status === 'FAILED') return null;
  const sent = BigInt((t.sentAmount as Money).amount);
  const fees = t.failureReason === 'PAYOUT_RETURNED' && t.fees !== undefined ? BigInt(t.fees as bigint) : 0n;
  return sent - fees;
}

/** A payment's refund as an entry of its own: money coming back, when it came back. */
function refundEntry(t: Json, sent: HistoryEntry): HistoryEntry | null {
  const refund = t.refund as Refund | undefined;
  const amount = sent.kind === 'SENT' ? refundedAmount(t) : null;
  if (!refund || amount === null) return null;
  return {
    ...sent,
    kind: 'REFUND',
    status: refund.status,
    amount,
    description: null,
    failureReason: null,
    createdAt: refund.settledAt ?? refund.initiatedAt,
    refunded: 0n,
  };
}

export const listHistory = defineCommand({
  name: 'wallet.history.list',
  input: z.object({ accountId: z.string().max(100).optional(), cursor: z.string().max(512).optional() }),
  actors: customer,
  idempotency: 'none',
  run: async (actor, q) => {
    const a = holder(actor);
    const { row, owned } = await ownAccount(a, q.accountId);
    const page = await transactions.list(
      a.platformId,
      { customerId: a.customerId, accountIdentifier: row.id, moneyMoved: true },
      20,
      'desc',
      q.cursor,
    );
    const entries = await Promise.all(
      (page.data as Json[]).map(async (t) => {
        const e = entryOf(t, row.id, await counterpartyOf(a, t, owned));
        const back = refundEntry(t, e);
        // Newest first: a refund comes after the payment it returns.
        return back ? [back, e] : [e];
      }),
    );
    return { ...page, data: entries.flat() };
  },
});

/**
 * One entry of the history in full: the transaction as the API answers it, the entry's figures,
 * the quote it was executed from (rate and fees), and its timeline (the events it went through).
 */
export const historyEntry = defineCommand({
  name: 'wallet.history.get',
  input: z.object({ id: z.string().max(100), accountId: z.string().max(100).optional() }),
  actors: customer,
  idempotency: 'none',
  run: async (actor, q) => {
    const a = holder(actor);
    const { row, owned } = await ownAccount(a, q.accountId);
    const missing = () => notFound('TRANSACTION_NOT_FOUND', `Transaction ${q.id}`);
    if (!/^(Card)?Transaction:/.test(q.id)) throw missing();
    const t = (await transactions.getAny(a.platformId, q.id)) as unknown as Json;
    if (t.customerId !== a.customerId) throw missing();
    const quote = typeof t.quoteId === 'string' ? await getQuote(a.platformId, t.quoteId).catch(() => null) : null;
    const events = await listEvents(a.platformId, { subjectId: t.id }, 50);
    const timeline = events.reverse().map((e) => ({ event: e.type, at: e.createdAt }));
    return {
      entry: entryOf(t, row.id, await counterpartyOf(a, t, owned)),
      transaction: t,
      quote,
      timeline,
    };
  },
});
