// Card states and every move a platform may ask for (interface spec, "Card state"): ACTIVE ⇄
// FROZEN, ACTIVE | FROZEN → CLOSED. Provisioning moves a new card out of PROCESSING. A move is one
// conditional UPDATE (repository.moveCard): it happens only while the card is still in one of
// the `from` states, so two concurrent requests cannot both apply a move to one card.
export type CardState = 'PENDING_KYC' | 'PROCESSING' | 'ACTIVE' | 'FROZEN' | 'CLOSED';

export const CARD_MOVES = {
  freeze: { from: ['ACTIVE'], to: 'FROZEN' },
  unfreeze: { from: ['FROZEN'], to: 'ACTIVE' },
  close: { from: ['ACTIVE', 'FROZEN'], to: 'CLOSED' },
  // The issuer finished provisioning (or refused to).
  activate: { from: ['PROCESSING'], to: 'ACTIVE' },
  reject: { from: ['PROCESSING'], to: 'CLOSED' },
} as const satisfies Record<string, { from: readonly CardState[]; to: CardState }>;

export type CardMove = keyof typeof CARD_MOVES;

/** The platform's requested target state as a move, or null when no move leads there from `from`. */
export function moveTo(from: CardState, to: 'ACTIVE' | 'FROZEN' | 'CLOSED'): CardMove | null {
  const move = (['freeze', 'unfreeze', 'close'] as const).find(
    (m) => CARD_MOVES[m].to === to && (CARD_MOVES[m].from as readonly CardState[]).includes(from),
  );
  return move ?? null;
}

// Card transaction states (reference: CardTransactionStatus) and the moves of the reconcile paths.
export type CardTransactionStatus = 'AUTHORIZED' | 'PARTIALLY_SETTLED' | 'SETTLED' | 'REFUNDED' | 'EXCEPTION';

/** States in which clearings and advices may still arrive against an authorization. */
export const OPEN: readonly CardTransactionStatus[] = ['AUTHORIZED', 'PARTIALLY_SETTLED'];
/** States in which a merchant return may arrive (something settled). */
export const RETURNABLE: readonly CardTransactionStatus[] = ['PARTIALLY_SETTLED', 'SETTLED', 'REFUNDED'];
