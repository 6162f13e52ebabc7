// Quote states and every allowed move, like the transactions' MOVES (../transactions/state.ts).
// A move is one conditional update (repository.move / moveSql): it only happens while the quote
// is still in one of the `from` states, so a concurrent execute, expiry sweep or settlement cannot
// apply two moves to one quote.
export type QuoteStatus = 'PENDING' | 'PENDING_AUTHORIZATION' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'EXPIRED';

export const QUOTE_MOVES = {
  // Strong Customer Authentication satisfied: the quote may now be executed or funded.
  authorize: { from: ['PENDING_AUTHORIZATION'], to: 'PENDING' },
  // Executed (or its real-time funding arrived): the payment is under way.
  execute: { from: ['PENDING'], to: 'PROCESSING' },
  // The funding pull failed before anything moved to the destination.
  fundingFailed: { from: ['PENDING'], to: 'FAILED' },
  // The payment settled; mirrors the transaction (a returned payout fails a COMPLETED quote).
  complete: { from: ['PROCESSING'], to: 'COMPLETED' },
  fail: { from: ['PROCESSING', 'COMPLETED'], to: 'FAILED' },
  // Not executed, funded or authorized before expiresAt.
  expire: { from: ['PENDING', 'PENDING_AUTHORIZATION'], to: 'EXPIRED' },
} as const satisfies Record<string, { from: readonly QuoteStatus[]; to: QuoteStatus }>;

export type QuoteMove = keyof typeof QUOTE_MOVES;
