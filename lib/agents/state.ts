// Agent action states and every allowed move. A move is one conditional UPDATE (repository.move):
// it happens only while the action is still in one of the `from` states, so two approvals (or an
// approval racing a rejection) of one action can never both take effect.
export type ActionStatus = 'PENDING_APPROVAL' | 'APPROVED' | 'REJECTED' | 'FAILED';

export const ACTION_MOVES = {
  // The platform approved and the operation ran (its transaction started).
  approve: { from: ['PENDING_APPROVAL'], to: 'APPROVED' },
  // The platform refused: nothing moved.
  reject: { from: ['PENDING_APPROVAL'], to: 'REJECTED' },
  // Approved, but the operation could not run (quote expired, insufficient funds, ...).
  fail: { from: ['PENDING_APPROVAL'], to: 'FAILED' },
} as const satisfies Record<string, { from: readonly ActionStatus[]; to: ActionStatus }>;

export type ActionMove = keyof typeof ACTION_MOVES;
