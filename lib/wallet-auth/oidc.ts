import { errorText, log } from '../core/log';
import { port } from '../core/ports';
import { createPublicKey, verify as verifySignature, type JsonWebKey } from 'node:crypto';
import { ttlCache } from '../core/cache';
import { now } from '../core/clock';
import { DomainError, invalidInput } from '../core/errors';
import { isSandbox } from '../core/mode';
import { base64urlToBytes } from '../core/crypto/encoding';
import { sha256Hex } from '../core/crypto/secrets';

// OIDC ID tokens for OAUTH credentials. The sandbox takes JWT-shaped tokens with a dummy
// signature and checks the claims exactly as production does; production also checks the
// signature against the issuer's published keys (JWKS). Which issuers are supported and where
// their keys are is configuration: Google and Apple by default, and CORRIDOR_OIDC_ISSUERS, a
// JSON object {"<iss>": "<jwks url>"}, to add or repoint issuers.
export const MAX_TOKEN_AGE_SECONDS = 60;
export const SANDBOX_CLOCK_SKEW_SECONDS = 5;

const DEFAULT_ISSUERS: Record<string, string> = {
  'https://accounts.google.com': 'https://www.googleapis.com/oauth2/v3/certs',
  'accounts.google.com': 'https://www.googleapis.com/oauth2/v3/certs',
  'https://appleid.apple.com': 'https://appleid.apple.com/auth/keys',
};

/** The last CORRIDOR_OIDC_ISSUERS value parsed, so a token does not re-parse it (a changed value is parsed anew). */
let parsedIssuers: { env: string; issuers: Record<string, string> } | undefined;

export function supportedIssuers(): Record<string, string> {
  const extra = process.env.CORRIDOR_OIDC_ISSUERS;
  if (!extra) return DEFAULT_ISSUERS;
  if (parsedIssuers?.env === extra) return parsedIssuers.issuers;
  let issuers: Record<string, string>;
  try {
    issuers = { ...DEFAULT_ISSUERS, ...(JSON.parse(extra) as Record<string, string>) };
  } catch {
    throw new Error('CORRIDOR_OIDC_ISSUERS must be a JSON object {"<issuer>": "<jwks url>"}');
  }
  parsedIssuers = { env: extra, issuers };
  return issuers;
}

export interface OidcIdentity {
  iss: string;
  aud: string;
  sub: string;
  email?: string;
}

interface DecodedToken {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  signingInput: string;
  signature: Uint8Array;
}

const malformed = (why: string) =>
  invalidInput(`oidcToken is malformed: ${why}`, [{ field: 'oidcToken', message: why }]);
const failed = (reason: string) => new DomainError('UNAUTHORIZED', `OIDC token rejected: ${reason}`, { reason });

function jsonSegment(segment: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64urlToBytes(segment)));
  } catch {
    throw malformed(`the ${what} is not base64url-encoded JSON`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw malformed(`the ${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

/** Splits a compact JWS; a token that is not one is 400 INVALID_INPUT. */
export function decodeToken(token: string): DecodedToken {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => p === ''))
    throw malformed('expected three dot-separated base64url segments (a JWT)');
  const header = jsonSegment(parts[0], 'header');
  const claims = jsonSegment(parts[1], 'payload');
  let signature: Uint8Array;
  try {
    signature = base64urlToBytes(parts[2]);
  } catch {
    throw malformed('the signature segment is not base64url');
  }
  return { header, claims, signingInput: `${parts[0]}.${parts[1]}`, signature };
}

/** An issuer's signing keys (JWKS) by URL, fetched at most every ten minutes. */
const jwksCache = ttlCache<JsonWebKey[]>('oidc-jwks', 10 * 60 * 1000, 100);

/** Where an issuer's signing keys come from (plugged in by lib/wiring.ts). */
export interface JwksSource {
  keys(url: string): Promise<JsonWebKey[]>;
}
export const jwksSource = port<JwksSource>('wallet-auth.oidc-keys');

/** The issuers' published JWKS documents, over HTTPS. */
export const httpJwksSource: JwksSource = {
  async keys(url) {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`JWKS ${url} answered ${res.status}`);
    return ((await res.json()) as { keys?: JsonWebKey[] }).keys ?? [];
  },
};

async function fetchJwks(issuer: string): Promise<JsonWebKey[]> {
  const issuers = supportedIssuers();
  const url = Object.hasOwn(issuers, issuer) ? issuers[issuer] : undefined;
  if (!url) throw new Error(`no JWKS URL is configured for ${issuer}`);
  const hit = jwksCache.get(url);
  if (hit) return hit;
  const keys = await jwksSource.get().keys(url);
  jwksCache.set(url, keys);
  return keys;
}

const ALGORITHMS: Record<string, { kty: string; dsaEncoding?: 'ieee-p1363' }> = {
  RS256: { kty: 'RSA' },
  ES256: { kty: 'EC', dsaEncoding: 'ieee-p1363' },
};

async function checkSignature(t: DecodedToken, issuer: string): Promise<void> {
  const alg = typeof t.header.alg === 'string' ? t.header.alg : '';
  const spec = ALGORITHMS[alg];
  if (!spec) throw failed(`Unsupported token algorithm ${alg || '(none)'}`);
  const kid = typeof t.header.kid === 'string' ? t.header.kid : undefined;
  let keys: JsonWebKey[];
  try {
    keys = await fetchJwks(issuer);
  } catch (err) {
    log().error({ issuer, err: errorText(err) }, "fetching an OIDC issuer's signing keys failed");
    throw failed("The issuer's signing keys could not be fetched");
  }
  const candidates = keys.filter(
    (k) => k.kty === spec.kty && (kid === undefined || (k as { kid?: string }).kid === kid),
  );
  for (const jwk of candidates) {
    try {
      const key = createPublicKey({ key: jwk, format: 'jwk' });
      const ok = verifySignature(
        'sha256',
        Buffer.from(t.signingInput),
        spec.dsaEncoding ? { key, dsaEncoding: spec.dsaEncoding } : key,
        t.signature,
      );
      if (ok) return;
    } catch {
      // an unusable key in the set is skipped
    }
  }
  throw failed('Token signature does not verify with the issuer keys');
}

function audience(aud: unknown): string | null {
  if (typeof aud === 'string' && aud !== '') return aud;
  if (Array.isArray(aud) && aud.length === 1 && typeof aud[0] === 'string' && aud[0] !== '') return aud[0];
  return null;
}

export interface OidcCheck {
  /** On verify: the identity the credential was registered with. */
  expected?: OidcIdentity;
  /** On verify: the exact clientPublicKey sent, which the nonce must commit to. */
  clientPublicKey?: string;
}

/**
 * Checks an OIDC token for registration (no `expected`) or verification. Malformed → 400
 * INVALID_INPUT (an unsupported issuer at registration too, as the reference lists); each failed
 * check → 401 UNAUTHORIZED with details.reason naming it.
 */
export async function checkOidcToken(token: string, check: OidcCheck = {}): Promise<OidcIdentity> {
  const t = decodeToken(token);
  const c = t.claims;
  if (typeof c.iss !== 'string' || c.iss === '') throw malformed('the iss claim is missing');
  if (!check.expected) {
    const issuers = supportedIssuers();
    if (!Object.hasOwn(issuers, c.iss))
      throw invalidInput(`oidcToken issuer ${c.iss} is not supported`, [
        { field: 'oidcToken', message: `iss must be one of ${Object.keys(issuers).join(', ')}` },
      ]);
  }
  if (check.expected && c.iss !== check.expected.iss) throw failed('iss does not match the credential');
  if (!isSandbox()) await checkSignature(t, c.iss);
  const aud = audience(c.aud);
  if (!aud) throw failed('aud must be a non-empty string or a one-element array of one');
  if (typeof c.sub !== 'string' || c.sub === '') throw failed('sub must be a non-empty string');
  if (check.expected && (aud !== check.expected.aud || c.sub !== check.expected.sub))
    throw failed('aud and sub do not match the credential');
  const at = now().getTime() / 1000;
  const skew = isSandbox() ? SANDBOX_CLOCK_SKEW_SECONDS : 0;
  if (typeof c.iat !== 'number' || !Number.isFinite(c.iat)) throw failed('iat must be a number');
  if (c.iat > at + skew) throw failed('iat is in the future');
  if (at - c.iat > MAX_TOKEN_AGE_SECONDS + skew) throw failed(`iat is more than ${MAX_TOKEN_AGE_SECONDS} seconds old`);
  if (typeof c.exp !== 'number' || !Number.isFinite(c.exp)) throw failed('exp must be a number');
  if (c.exp <= at) throw failed('Token expired (exp is in the past)');
  if (check.clientPublicKey !== undefined && c.nonce !== sha256Hex(check.clientPublicKey)) {
    throw failed('nonce must be the SHA-256 hex digest of clientPublicKey');
  }
  return { iss: c.iss, aud, sub: c.sub, ...(typeof c.email === 'string' && c.email ? { email: c.email } : {}) };
}
