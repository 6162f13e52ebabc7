import { currentCorridor } from './context';

// How this installation runs: sandbox (the default: magic values, sandbox endpoints, sandbox
// codes) or production — the current instance's mode, fixed when it was built (CORRIDOR_MODE at
// start) — and where it is reached.
export function isSandbox(): boolean {
  return currentCorridor().config.mode === 'sandbox';
}

/** The API's base path: `{base_url}` = `http://<host>/api/2025-10-13` (DESIGN.md). */
export const API_BASE = '/api/2025-10-13';

/**
 * The service's public base URL (no trailing slash): CORRIDOR_PUBLIC_URL, or the local server on
 * $PORT. Links handed to customers (KYC, liveness, end-user terms), the WebAuthn relying party
 * and the start banner are all built on it.
 */
export function publicBaseUrl(): string {
  return (process.env.CORRIDOR_PUBLIC_URL || `http://localhost:${process.env.PORT || 3000}`).replace(/\/+$/, '');
}

/**
 * Strict request reading (CORRIDOR_STRICT_REQUESTS=1): a body field an operation does not define
 * is refused (400 naming it) instead of ignored. Off by default, because the reference declares
 * no `additionalProperties: false` and clients generated from earlier versions of the interface
 * send fields it has since dropped; on, it catches a misspelt optional field.
 */
export function strictRequests(): boolean {
  return process.env.CORRIDOR_STRICT_REQUESTS === '1';
}

/**
 * Whether cookies must be Secure: everywhere but a local server (localhost, 127.0.0.1, ::1),
 * where browsers treat plain http as a secure context and development needs no certificate.
 */
export function secureCookies(): boolean {
  const host = new URL(publicBaseUrl()).hostname;
  return !['localhost', '127.0.0.1', '[::1]', '::1'].includes(host);
}
