import type { Tx } from '../core/db';
import * as ledger from '../ledger/service';
import { bucketAccount, systemAccount, type Leg } from '../ledger/service';
import type { TransactionRow } from './transactions/repository';
import { amountsOf, planOf, type Funding } from './plan';

// Ledger postings of a payment's life. Each is one balanced posting tagged with the transaction:
//   hold      funds leave the spendable balance into "in flight" (HELD bucket or CLEARING)
//   settle    in-flight funds pay fees, cross the FX desk and leave to the destination
//   release   in-flight funds go back where they came from (failure before payout)
//   reverse   a settled payout comes back (return): principal back to the source, fees kept
//   refund    the rail carried a refund back to the payer's bank (pull-funded quotes, production),
//             or staff resolved one that did not go through (rail-refund-ops.ts)
const inFlight = (platformId: string, f: Funding, currency: string) =>
  f.kind === 'INTERNAL' ? bucketAccount(f.internalAccountId, 'HELD') : systemAccount(platformId, 'CLEARING', currency);
const origin = (platformId: string, f: Funding, currency: string) =>
  f.kind === 'INTERNAL'
    ? bucketAccount(f.internalAccountId, 'AVAILABLE')
    : systemAccount(platformId, `WORLD:${f.rail}`, currency);

/** The posting that moves the total into flight. */
export function holdPosting(row: TransactionRow): ledger.Posting {
  const { funding } = planOf(row);
  const { total } = amountsOf(row);
  const c = row.sentCurrency!;
  return ledger.posting({
    platformId: row.platformId,
    kind: 'PAYMENT_HOLD',
    transactionId: row.id,
    legs: [
      { account: origin(row.platformId, funding, c), currency: c, amount: -total },
      { account: inFlight(row.platformId, funding, c), currency: c, amount: total },
    ],
  });
}

/** Moves the total into flight. Throws InsufficientFunds (the transaction must roll back). */
export async function hold(tx: Tx, row: TransactionRow): Promise<void> {
  await ledger.runStep({ moves: [], writes: [], posting: holdPosting(row), announce: [] }, tx);
}

/** Where the receiving-currency side ends: the destination account, or the outside world. */
function destinationAccount(row: TransactionRow): { platformId: string; account: string } {
  const { route } = planOf(row);
  const c = row.receivedCurrency!;
  switch (route.kind) {
    case 'INTERNAL':
      return { platformId: row.platformId, account: bucketAccount(route.internalAccountId, 'AVAILABLE') };
    case 'EXTERNAL':
      return { platformId: row.platformId, account: systemAccount(row.platformId, `WORLD:${route.rail}`, c) };
    case 'UMA_SANDBOX':
    case 'UMA_CUSTOMER':
      return { platformId: row.platformId, account: systemAccount(row.platformId, 'WORLD:UMA', c) };
  }
}

/**
 * Completes the payout: fees to the service and the platform, principal across the FX desk, the
 * receiving amount to the destination. `platformFeeAccount` is the platform's own internal
 * account in the sending currency, where platform-collected fees settle.
 */
export function settlePosting(row: TransactionRow, platformFeeAccount: string | null): ledger.Posting {
  const { funding } = planOf(row);
  const a = amountsOf(row);
  const s = row.sentCurrency!;
  const r = row.receivedCurrency!;
  const dest = destinationAccount(row);
  const legs: Leg[] = [
    { account: inFlight(row.platformId, funding, s), currency: s, amount: -a.total },
    { account: systemAccount(row.platformId, 'FEES', s), currency: s, amount: a.serviceFee },
    platformFeeAccount
      ? { account: bucketAccount(platformFeeAccount, 'AVAILABLE'), currency: s, amount: a.platformFee }
      : { account: systemAccount(row.platformId, 'PLATFORM_FEES', s), currency: s, amount: a.platformFee },
  ];
  if (s === r) {
    legs.push({ account: dest.account, currency: r, amount: a.net });
  } else {
    legs.push({ account: systemAccount(row.platformId, 'FX', s), currency: s, amount: a.net });
    legs.push({ account: systemAccount(row.platformId, 'FX', r), currency: r, amount: -a.received });
    legs.push({ account: dest.account, currency: r, amount: a.received });
  }
  return ledger.posting({ platformId: row.platformId, kind: 'PAYMENT_SETTLE', transactionId: row.id, legs });
}

/** Returns the in-flight total to where it came from (nothing was paid out). */
export function releasePosting(row: TransactionRow): ledger.Posting {
  const { funding } = planOf(row);
  const { total } = amountsOf(row);
  const c = row.sentCurrency!;
  return ledger.posting({
    platformId: row.platformId,
    kind: 'PAYMENT_RELEASE',
    transactionId: row.id,
    legs: [
      { account: inFlight(row.platformId, funding, c), currency: c, amount: -total },
      { account: origin(row.platformId, funding, c), currency: c, amount: total },
    ],
  });
}

/**
 * A settled payout came back: the receiving amount re-enters and the principal is credited back —
 * to the source, or (`toInFlight`, a refund the rail still has to carry back to the payer's bank)
 * into flight again, until refundPosting sends it on.
 */
export function reversePosting(row: TransactionRow, opts: { toInFlight?: boolean } = {}): ledger.Posting {
  const { funding } = planOf(row);
  const a = amountsOf(row);
  const s = row.sentCurrency!;
  const r = row.receivedCurrency!;
  const dest = destinationAccount(row);
  const back = (opts.toInFlight ? inFlight : origin)(row.platformId, funding, s);
  const legs: Leg[] =
    s === r
      ? [
          { account: dest.account, currency: r, amount: -a.net },
          { account: back, currency: s, amount: a.net },
        ]
      : [
          { account: dest.account, currency: r, amount: -a.received },
          { account: systemAccount(row.platformId, 'FX', r), currency: r, amount: a.received },
          { account: systemAccount(row.platformId, 'FX', s), currency: s, amount: -a.net },
          { account: back, currency: s, amount: a.net },
        ];
  return ledger.posting({ platformId: row.platformId, kind: 'PAYMENT_RETURN', transactionId: row.id, legs });
}

/**
 * What a refund sent over the rail gives back: the whole total when the payout failed before
 * paying out, the principal (fees kept) when a completed payout was returned.
 */
export function refundAmount(row: TransactionRow): bigint {
  const a = amountsOf(row);
  return row.failureReason === 'PAYOUT_RETURNED' ? a.net : a.total;
}

/**
 * The rail carried a refund back to the payer's bank: the amount leaves flight for where it came
 * from. `back`: the opposite — a refund the payer's bank sent back to us, in flight again
 * (PAYMENT_REFUND_RETURN, posted when staff send it again: rail-refund-ops.ts). `kind` names why
 * the money left when it was not the rail carrying the refund (staff, rail-refund-ops.ts).
 */
export function refundPosting(row: TransactionRow, opts: { back?: boolean; kind?: string } = {}): ledger.Posting {
  const { funding } = planOf(row);
  const amount = opts.back ? -refundAmount(row) : refundAmount(row);
  const c = row.sentCurrency!;
  return ledger.posting({
    platformId: row.platformId,
    kind: opts.kind ?? (opts.back ? 'PAYMENT_REFUND_RETURN' : 'PAYMENT_REFUND'),
    transactionId: row.id,
    legs: [
      { account: inFlight(row.platformId, funding, c), currency: c, amount: -amount },
      { account: origin(row.platformId, funding, c), currency: c, amount },
    ],
  });
}

/**
 * The payer's bank reversed the pull that funded a quote after it completed (rail-refund-ops.ts):
 * `fromClearing` (a refund still held for the payer) leaves clearing, `toWorld` leaves for the
 * payer's bank (negative: comes back from it, a refund it returned), and the payer receivable
 * takes the difference: what the payer now owes, or — negative — the part of an earlier debt this
 * settles. `owed` is that difference.
 */
export function pullReversalPosting(
  row: TransactionRow,
  p: { fromClearing: bigint; toWorld: bigint },
): { posting: ledger.Posting; owed: bigint } {
  const { funding } = planOf(row);
  const c = row.sentCurrency!;
  const owed = p.toWorld - p.fromClearing;
  const posting = ledger.posting({
    platformId: row.platformId,
    kind: 'PAYMENT_PULL_REVERSAL',
    transactionId: row.id,
    legs: [
      { account: inFlight(row.platformId, funding, c), currency: c, amount: -p.fromClearing },
      { account: origin(row.platformId, funding, c), currency: c, amount: p.toWorld },
      { account: systemAccount(row.platformId, 'PAYER_RECEIVABLE', c), currency: c, amount: -owed },
    ],
  });
  return { posting, owed };
}
