import type { TransactionRow } from './transactions/repository';
import type { Route } from './routing';

// A transaction's settlement plan, stored with it: where the money comes from and where it goes.
// Amounts live in the transaction's typed columns (sentAmount = total debited, fees,
// platformFees, receivedAmount), never in JSON.
export type Funding =
  // Debited from an internal account (held in its HELD bucket while in flight).
  | { kind: 'INTERNAL'; internalAccountId: string }
  // Arrived from outside (real-time funding, pulls): held in the CLEARING system account.
  | { kind: 'CLEARING'; rail: string };

export interface Plan {
  funding: Funding;
  route: Route;
}

export function planOf(row: TransactionRow): Plan {
  if (!row.plan) throw new Error(`transaction ${row.id} has no settlement plan`);
  return row.plan as unknown as Plan;
}

export function amountsOf(row: TransactionRow) {
  const total = row.sentAmount ?? 0n;
  const fees = row.fees ?? 0n;
  const platformFee = row.platformFees ?? 0n;
  return {
    total,
    fees,
    platformFee,
    serviceFee: fees - platformFee,
    net: total - fees,
    received: row.receivedAmount ?? 0n,
  };
}
