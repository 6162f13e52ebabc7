import { now } from '../core/clock';
import type { Tx } from '../core/db';
import { DomainError, fieldError } from '../core/errors';
import * as repo from './repository';
import type { CardRow, CardTransactionRow } from './repository';
import { available, move, type Place } from './postings';
import { announce, recordCardEvent } from './record';
import { OPEN, RETURNABLE, type CardTransactionStatus } from './state';

// The reconcile paths a processor drives after an authorization: the pull's confirmation,
// clearings (partial, over-auth, expiry with 0), merchant returns and their reversals, and
// advices re-sizing an open authorization. Each runs with the card transaction locked, posts to
// the ledger and moves the row with a conditional UPDATE guarded by the states it starts from.
const funding = (t: CardTransactionRow) => ({
  platformId: t.platformId,
  id: t.id,
  accountId: t.accountId,
  currency: t.currency,
});
const debit = (t: CardTransactionRow) => t.direction === 'DEBIT';
/** Where an authorization's open amount waits: held for purchases, pending for credits. */
const reserve = (t: CardTransactionRow): Place => (debit(t) ? 'held' : 'pending');

function stale(t: CardTransactionRow): never {
  throw new DomainError('INVALID_INPUT', `Card transaction ${t.id} changed meanwhile; retry`);
}

/**
 * What a real processor adds to the CardEvent an event leaves (its own event id and type), so a
 * redelivered event is recognised (lib/cards/lithic-events.ts).
 */
export type ProcessorDetails = Record<string, unknown>;

const needStatus = (t: CardTransactionRow, allowed: readonly CardTransactionStatus[], what: string) => {
  if (!allowed.includes(t.status as CardTransactionStatus))
    throw fieldError('cardTransactionId', `${what} needs a transaction in ${allowed.join(' or ')} (it is ${t.status})`);
};

/**
 * Pulls `amount` from the funding source to the network after the fact (over-auth clearings,
 * reversed returns). When the source cannot cover it the network is still paid and the amount
 * is owed by the cardholder (CARD_RECEIVABLE): the transaction goes to EXCEPTION.
 */
async function postHocPull(tx: Tx, t: CardTransactionRow, amount: bigint): Promise<boolean> {
  const spendable = (await available([t.accountId], tx)).get(t.accountId) ?? 0n;
  if (spendable >= amount) {
    await move(tx, funding(t), 'CARD_PULL', 'available', 'network', amount);
    return true;
  }
  await move(tx, funding(t), 'CARD_PULL_FAILED', 'receivable', 'network', amount);
  return false;
}

/** The issuer confirmed (or, sandbox 006, failed) the authorization's pull. */
export async function confirmPull(tx: Tx, t: CardTransactionRow, failed: boolean): Promise<CardTransactionRow> {
  if (t.pullPending === 0 || !OPEN.includes(t.status as CardTransactionStatus)) return t;
  const at = now();
  await recordCardEvent(tx, {
    ...t,
    cardTransactionId: t.id,
    token: t.issuerTransactionToken,
    kind: 'PULL_CONFIRMATION',
    amount: t.pullTotal,
    details: { pullStatus: failed ? 'FAILED' : 'CONFIRMED' },
  });
  if (failed) {
    // The reserved funds never reached the card program: they go back, and the transaction needs attention.
    await move(tx, funding(t), 'CARD_PULL_FAILED', 'held', 'available', t.openAmount);
    const row = await repo.updateTransaction(
      t.id,
      OPEN,
      { status: 'EXCEPTION', openAmount: 0n, pullPending: 0, lastEventAt: at, updatedAt: at },
      tx,
    );
    if (!row) return stale(t);
    await announce(tx, row);
    return row;
  }
  const row = await repo.updateTransaction(t.id, OPEN, { pullPending: 0, lastEventAt: at, updatedAt: at }, tx);
  if (!row) return stale(t);
  // A single-message (financial) authorization clears itself once its money is in.
  return row.singleMessage ? clear(tx, row, row.authorizedAmount, 'CLEARING') : row;
}

/** A clearing of `amount` (0: the authorization expired with nothing cleared). */
export async function clear(
  tx: Tx,
  t: CardTransactionRow,
  amount: bigint,
  kind: 'CLEARING' | 'AUTHORIZATION_EXPIRY' = amount === 0n ? 'AUTHORIZATION_EXPIRY' : 'CLEARING',
  details?: ProcessorDetails,
): Promise<CardTransactionRow> {
  needStatus(t, OPEN, 'A clearing');
  const at = now();
  const f = funding(t);
  const fromOpen = amount < t.openAmount ? amount : t.openAmount;
  const extra = amount - fromOpen;
  let status: CardTransactionStatus;
  let pulls = 0;
  let pulled = 0n;
  if (amount === 0n) {
    // Expiry: whatever is still reserved goes back where it came from.
    await move(tx, f, 'CARD_EXPIRY', reserve(t), debit(t) ? 'available' : 'network', t.openAmount);
    status = 'SETTLED';
  } else {
    await move(tx, f, 'CARD_CLEARING', reserve(t), debit(t) ? 'network' : 'available', fromOpen);
    status = t.openAmount - fromOpen === 0n ? 'SETTLED' : 'PARTIALLY_SETTLED';
    if (extra > 0n && debit(t)) {
      pulls = 1;
      if (await postHocPull(tx, t, extra)) pulled = extra;
      else status = 'EXCEPTION';
    } else if (extra > 0n) {
      await move(tx, f, 'CARD_CLEARING', 'network', 'available', extra);
    }
  }
  const row = await repo.updateTransaction(
    t.id,
    OPEN,
    {
      status,
      openAmount: amount === 0n ? 0n : t.openAmount - fromOpen,
      settledAmount: t.settledAmount + amount,
      settlementCount: t.settlementCount + (amount > 0n ? 1 : 0),
      pullCount: t.pullCount + pulls,
      pullTotal: t.pullTotal + pulled,
      lastEventAt: at,
      updatedAt: at,
    },
    tx,
  );
  if (!row) return stale(t);
  await recordCardEvent(tx, { ...t, cardTransactionId: t.id, token: t.issuerTransactionToken, kind, amount, details });
  await announce(tx, row);
  return row;
}

/** A merchant return of `amount` of what settled: back to the funding source. */
export async function refund(
  tx: Tx,
  t: CardTransactionRow,
  amount: bigint,
  details?: ProcessorDetails,
): Promise<CardTransactionRow> {
  if (!debit(t)) throw fieldError('cardTransactionId', 'Only purchases (DEBIT card transactions) can be returned');
  needStatus(t, RETURNABLE, 'A return');
  const net = t.settledAmount - t.refundedAmount;
  if (amount > net)
    throw fieldError('amount', `must be at most the net settled amount ${net} (settled minus already refunded)`);
  const at = now();
  await move(tx, funding(t), 'CARD_REFUND', 'network', 'available', amount);
  const refunded = t.refundedAmount + amount;
  const full = refunded === t.settledAmount && t.openAmount === 0n;
  const row = await repo.updateTransaction(
    t.id,
    RETURNABLE,
    {
      status: full ? 'REFUNDED' : t.status,
      refundedAmount: refunded,
      refundCount: t.refundCount + 1,
      lastEventAt: at,
      updatedAt: at,
    },
    tx,
  );
  if (!row) return stale(t);
  await recordCardEvent(tx, {
    ...t,
    cardTransactionId: t.id,
    token: t.issuerTransactionToken,
    kind: 'RETURN',
    amount,
    details,
  });
  await announce(tx, row, 'CARD_TRANSACTION.REFUNDED');
  return row;
}

/** The network reverses the latest return of a REFUNDED transaction: its amount is pulled again. */
export async function reverseReturn(
  tx: Tx,
  t: CardTransactionRow,
  details?: ProcessorDetails,
): Promise<CardTransactionRow> {
  needStatus(t, ['REFUNDED'], 'A return reversal');
  const last = await repo.lastOpenReturn(t.id, tx);
  if (!last || !(await repo.markReversed(last.id, now(), tx)))
    throw fieldError('cardTransactionId', `Card transaction ${t.id} has no return left to reverse`);
  const at = now();
  const ok = await postHocPull(tx, t, last.amount);
  const row = await repo.updateTransaction(
    t.id,
    ['REFUNDED'],
    {
      status: ok ? 'SETTLED' : 'EXCEPTION',
      refundedAmount: t.refundedAmount - last.amount,
      pullCount: t.pullCount + 1,
      pullTotal: t.pullTotal + (ok ? last.amount : 0n),
      lastEventAt: at,
      updatedAt: at,
    },
    tx,
  );
  if (!row) return stale(t);
  await recordCardEvent(tx, {
    ...t,
    cardTransactionId: t.id,
    token: t.issuerTransactionToken,
    kind: 'RETURN_REVERSAL',
    amount: last.amount,
    details: { ...details, returnEventId: last.id },
  });
  await announce(tx, row);
  return row;
}

/**
 * An advice re-sizing an open authorization to a new total. Growing a purchase's authorization
 * is decided like an authorization (limit, funds); a refused advice changes nothing and is
 * recorded as declined. Returns the decline reason, or null.
 */
export async function advise(
  tx: Tx,
  card: CardRow,
  t: CardTransactionRow,
  total: bigint,
  details?: ProcessorDetails,
): Promise<string | null> {
  needStatus(t, OPEN, 'An authorization advice');
  const open = total - t.settledAmount;
  if (open < 0n) throw fieldError('amount', `must be at least the amount already settled (${t.settledAmount})`);
  const delta = open - t.openAmount;
  const event = {
    ...t,
    cardTransactionId: t.id,
    token: t.issuerTransactionToken,
    kind: 'AUTHORIZATION_ADVICE' as const,
  };
  let decline: string | null = null;
  if (debit(t) && delta > 0n) {
    if (card.maxSpendPerTransaction !== null && total > card.maxSpendPerTransaction)
      decline = 'EXCEEDS_MAX_SPEND_PER_TRANSACTION';
    else if (((await available([t.accountId], tx)).get(t.accountId) ?? 0n) < delta) decline = 'INSUFFICIENT_FUNDS';
  }
  if (decline) {
    await recordCardEvent(tx, { ...event, amount: total, declineReason: decline, details });
    return decline;
  }
  const f = funding(t);
  if (debit(t)) {
    if (delta > 0n) await move(tx, f, 'CARD_HOLD', 'available', 'held', delta);
    else await move(tx, f, 'CARD_RELEASE', 'held', 'available', -delta);
  } else if (delta > 0n) await move(tx, f, 'CARD_CREDIT_HOLD', 'network', 'pending', delta);
  else await move(tx, f, 'CARD_CREDIT_RELEASE', 'pending', 'network', -delta);
  const at = now();
  const grew = debit(t) && delta > 0n;
  const row = await repo.updateTransaction(
    t.id,
    OPEN,
    {
      authorizedAmount: total,
      openAmount: open,
      ...(open === 0n && t.settledAmount > 0n ? { status: 'SETTLED' } : {}),
      pullCount: t.pullCount + (grew ? 1 : 0),
      pullTotal: t.pullTotal + (grew ? delta : 0n),
      lastEventAt: at,
      updatedAt: at,
    },
    tx,
  );
  if (!row) return stale(t);
  await recordCardEvent(tx, {
    ...event,
    amount: total,
    details: { ...details, previousAuthorizedAmount: t.authorizedAmount },
  });
  await announce(tx, row);
  return null;
}

/** A closed card's open authorizations reconcile to a terminal state: each expires (a 0 clearing). */
export async function expireOpenAuthorizations(tx: Tx, card: CardRow): Promise<void> {
  for (const open of await repo.openTransactionsOf(card.id, tx)) {
    const t = await repo.lockTransaction(card.platformId, open.id, tx);
    if (t && OPEN.includes(t.status as CardTransactionStatus)) await clear(tx, t, 0n);
  }
}
