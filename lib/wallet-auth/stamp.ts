import { DomainError } from '../core/errors';
import { isSandbox } from '../core/mode';
import { base64urlToBytes, hexToBytes, isHex } from '../core/crypto/encoding';
import { isDerSignature, parsePublicKey, verifyDer } from '../core/crypto/p256';

// The wallet signature ("stamp") a client sends in Service-Wallet-Signature (alias
// Grid-Wallet-Signature): base64url of the JSON {publicKey, scheme, signature}, where publicKey
// is the session's P-256 key (SEC1 hex) and signature the DER ECDSA signature (hex) over
// SHA-256 of the payloadToSign bytes exactly as the server issued them. The JSON is parsed,
// not compared byte-for-byte, so any key order or whitespace the client's library emits works.
export const STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';
export const SIGNATURE_HEADERS = ['service-wallet-signature', 'grid-wallet-signature'] as const;
/** Legacy literal signature the sandbox still accepts in place of a stamp. */
export const SANDBOX_LITERAL_SIGNATURE = 'sandbox-valid-signature';

export type Stamp = { kind: 'stamp'; publicKey: string; signature: Uint8Array } | { kind: 'sandbox-literal' };

const malformed = (reason: string) =>
  new DomainError('WALLET_SIGNATURE_MALFORMED', `The wallet signature header is malformed: ${reason}`, { reason });

/** The stamp header of a request (either spelling), or null when absent. */
export function stampHeader(headers: Headers): string | null {
  for (const name of SIGNATURE_HEADERS) {
    const v = headers.get(name);
    if (v !== null && v.trim() !== '') return v.trim();
  }
  return null;
}

/** Parses a stamp header value; throws 401 WALLET_SIGNATURE_MALFORMED naming the problem. */
export function parseStamp(value: string): Stamp {
  if (value === SANDBOX_LITERAL_SIGNATURE && isSandbox()) return { kind: 'sandbox-literal' };
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64urlToBytes(value)));
  } catch {
    throw malformed('not base64url-encoded JSON');
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw malformed('not a JSON object');
  const { publicKey, scheme, signature } = json as Record<string, unknown>;
  if (scheme !== STAMP_SCHEME) throw malformed(`scheme must be ${STAMP_SCHEME}`);
  if (typeof publicKey !== 'string') throw malformed('publicKey is missing');
  const key = parsePublicKey(publicKey);
  if (!key) throw malformed('publicKey is not a P-256 public key in SEC1 hex');
  if (typeof signature !== 'string' || !isHex(signature) || signature.length === 0)
    throw malformed('signature is not hex');
  const sig = hexToBytes(signature);
  if (!isDerSignature(sig)) throw malformed('signature is not a DER-encoded ECDSA signature');
  return { kind: 'stamp', publicKey: key.compressedHex, signature: sig };
}

/** Whether the stamp's signature verifies over the exact payload string. */
export function stampSignsPayload(stamp: Extract<Stamp, { kind: 'stamp' }>, payloadToSign: string): boolean {
  const key = parsePublicKey(stamp.publicKey)!;
  return verifyDer(stamp.signature, new TextEncoder().encode(payloadToSign), key.compressed);
}
