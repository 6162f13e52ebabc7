// Transaction states and every allowed move. A move is one conditional update (see
// repository.transition): it only happens when the row is still in one of the `from` states, so
// concurrent workers and requests cannot apply two moves to one transaction.
export type TransactionStatus =
  | 'CREATED'
  | 'PENDING'
  | 'PENDING_AUTHORIZATION'
  | 'PROCESSING'
  | 'COMPLETED'
  | 'REJECTED'
  | 'FAILED'
  | 'REFUNDED'
  | 'EXPIRED';

export const MOVES = {
  // A quote was executed, a real-time-funding quote received its funds, or a pending incoming
  // payment / agent payment was approved: the money is moving.
  start: { from: ['PENDING'], to: 'PROCESSING' },
  // Strong Customer Authentication satisfied on a quote that waits for its funds.
  authorize: { from: ['PENDING_AUTHORIZATION'], to: 'PENDING' },
  // The payout (or collection) settled at the other end.
  complete: { from: ['PROCESSING'], to: 'COMPLETED' },
  // The payout or collection failed on its way; money that left the source is refunded.
  fail: { from: ['PENDING', 'PROCESSING'], to: 'FAILED' },
  // The receiving bank sent a completed payout back (sandbox suffix 005).
  returned: { from: ['COMPLETED'], to: 'FAILED' },
  // The platform (or its webhook) refused a pending incoming payment.
  reject: { from: ['PENDING'], to: 'REJECTED' },
  // The quote was not executed (or not funded, or not authorized) in time.
  expire: { from: ['PENDING', 'PENDING_AUTHORIZATION'], to: 'EXPIRED' },
} as const satisfies Record<string, { from: readonly TransactionStatus[]; to: TransactionStatus }>;

export type Move = keyof typeof MOVES;
