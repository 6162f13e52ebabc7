// Stablecoin states and every allowed move. A move is one conditional UPDATE (repository.ts
// `moveOperation` / `moveLink`): it happens only while the row is still in one of the `from`
// states, so a worker and a request (or two workers) can never both apply a move.
export type OperationStatus =
  'CREATED' | 'PENDING_FUNDING' | 'PENDING_PROVIDER' | 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'EXPIRED';

export const OPERATION_MOVES = {
  // The provider holds the operation's input: the fiat for a mint, the tokens for a burn.
  fundsReceived: { from: ['PENDING_FUNDING', 'PENDING_PROVIDER'], to: 'PROCESSING' },
  // Tokens delivered (mint) or fiat paid out (burn).
  complete: { from: ['PROCESSING'], to: 'COMPLETED' },
  // The provider refused the operation before taking anything (held funds are released).
  refuse: { from: ['PENDING_FUNDING', 'PENDING_PROVIDER'], to: 'FAILED' },
  // The provider gave up after receiving the input, which goes back.
  fail: { from: ['PROCESSING'], to: 'FAILED' },
  // Funds awaited from the issuer never arrived before `expiresAt`.
  expire: { from: ['PENDING_FUNDING'], to: 'EXPIRED' },
} as const satisfies Record<string, { from: readonly OperationStatus[]; to: OperationStatus }>;
export type OperationMove = keyof typeof OPERATION_MOVES;

export type LinkStatus = 'ACTIVE' | 'INVALID' | 'REVOKED';

export const LINK_MOVES = {
  // The provider reported the credentials revoked, or no longer accepted.
  revoke: { from: ['ACTIVE', 'INVALID'], to: 'REVOKED' },
  invalidate: { from: ['ACTIVE'], to: 'INVALID' },
  // Fresh credentials for a link that had stopped working.
  relink: { from: ['INVALID', 'REVOKED'], to: 'ACTIVE' },
} as const satisfies Record<string, { from: readonly LinkStatus[]; to: LinkStatus }>;
export type LinkMove = keyof typeof LINK_MOVES;

export type IssuanceStatus = 'PENDING_REVIEW' | 'PROVISIONING' | 'PROVISIONED' | 'REJECTED' | 'FAILED';

export const ISSUANCE_MOVES = {
  // The provider finished reviewing a token registered while under review.
  provisioned: { from: ['PENDING_REVIEW', 'PROVISIONING'], to: 'PROVISIONED' },
  rejected: { from: ['PENDING_REVIEW', 'PROVISIONING'], to: 'REJECTED' },
  failed: { from: ['PENDING_REVIEW', 'PROVISIONING'], to: 'FAILED' },
} as const satisfies Record<string, { from: readonly IssuanceStatus[]; to: IssuanceStatus }>;
export type IssuanceMove = keyof typeof ISSUANCE_MOVES;
