import { now } from '../core/clock';
import { type Tx } from '../core/db';
import { DomainError } from '../core/errors';
import { activeSessionsWithKey } from './repository';
import { parseStamp, stampSignsPayload } from './stamp';

// The wallet signature for actions whose payload travels with a resource instead of a 202
// challenge: quote execution from an EMBEDDED_WALLET source, where the quote carries
// payloadToSign and the client sends Service-Wallet-Signature over it. There is no Request-Id:
// the quote's own state (PENDING → executed once) makes the signature single use.
//
//   await verifyWalletStamp({ platformId, accountId: quote.sourceAccountId, payload: quote.payloadToSign, stamp });
//
// The stamp must verify over the exact payload with the key of an active, unexpired session of
// that account (a session of a revoked credential is not). Throws 401 WALLET_SIGNATURE_MALFORMED
// or WALLET_SIGNATURE_INVALID (with details.reason); returns the signing session.
const invalid = (reason: string) =>
  new DomainError('WALLET_SIGNATURE_INVALID', `The wallet signature was not accepted: ${reason}`, { reason });

export async function verifyWalletStamp(opts: {
  platformId: string;
  accountId: string;
  payload: string;
  stamp: string;
  tx: Tx;
}): Promise<{ sessionId: string; publicKey: string }> {
  const stamp = parseStamp(opts.stamp);
  if (stamp.kind === 'stamp' && !stampSignsPayload(stamp, opts.payload))
    throw invalid('Signature does not verify over payloadToSign');
  const sessions = await activeSessionsWithKey(
    opts.platformId,
    [opts.accountId],
    stamp.kind === 'stamp' ? stamp.publicKey : null,
    now(),
    opts.tx,
  );
  if (!sessions.length) throw invalid('The signing key is not an active session of the source wallet');
  return { sessionId: sessions[0].id, publicKey: sessions[0].publicKey };
}

/**
 * The same, reading the stamp from the request headers (either spelling, trimmed); a missing or
 * blank header is WALLET_SIGNATURE_MISSING, with `missingMessage` when the caller names the action.
 */
export async function verifyWalletSignature(opts: {
  platformId: string;
  accountId: string;
  payload: string;
  /** The stamp header's value (Service-Wallet-Signature or its alias), null when absent. */
  stamp: string | null;
  tx: Tx;
  missingMessage?: string;
}) {
  const { stamp } = opts;
  if (stamp === null)
    throw new DomainError(
      'WALLET_SIGNATURE_MISSING',
      opts.missingMessage ?? 'This action needs a Service-Wallet-Signature header: the stamp over payloadToSign',
    );
  return verifyWalletStamp({
    platformId: opts.platformId,
    accountId: opts.accountId,
    payload: opts.payload,
    stamp,
    tx: opts.tx,
  });
}
