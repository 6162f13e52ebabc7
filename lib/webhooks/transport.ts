import { port } from '../core/ports';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { SIGNATURE_HEADER } from './keys';
import { resolveTarget, TargetRefused, type Resolver } from './target';

// The webhook transport port: one signed POST, its outcome, never an exception. Redirects are
// not followed (node:http never does; a 3xx is reported like any other non-2xx status), the
// connection goes to the address resolveTarget checked, and an attempt ends after `timeoutMs`.
export const ATTEMPT_TIMEOUT_MS = 10_000;
/**
 * How much of a response body is read and kept (for the platform's answer to a pending incoming
 * payment, and as an excerpt stored with the attempt for operators); never returned to a caller.
 */
export const RESPONSE_CAP_BYTES = 2048;

class AttemptTimeout extends Error {}

export interface SendResult {
  /** HTTP status of the answer; absent when none came. */
  status?: number;
  /** Why no answer came (refused target, DNS, connect, TLS, timeout). */
  error?: string;
  latencyMs: number;
  /** Up to RESPONSE_CAP_BYTES of the body, as text. */
  body: string;
}

export interface SendOptions {
  timeoutMs?: number;
  allowPrivate?: boolean;
  resolve?: Resolver;
  /**
   * The W3C traceparent of the attempt's span (traces on), sent as the `traceparent` header so a
   * receiver that traces continues the trace. Outside the signature, which covers the body only.
   */
  traceParent?: string;
}

/** How signed webhooks reach platforms (plugged in by lib/wiring.ts). */
export interface WebhookTransport {
  post(endpoint: string, body: string, signature: string, opts?: SendOptions): Promise<SendResult>;
}
export const webhookTransport = port<WebhookTransport>('webhooks.transport');

/** HTTPS (or HTTP) POST to the platform's endpoint, pinned to a checked public address. */
export const httpWebhookTransport: WebhookTransport = {
  post: (endpoint, body, signature, opts) => postSigned(endpoint, body, signature, opts),
};

export async function postSigned(
  endpoint: string,
  body: string,
  signature: string,
  opts: SendOptions = {},
): Promise<SendResult> {
  const started = performance.now();
  const timeoutMs = opts.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const elapsed = () => Math.round(performance.now() - started);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AttemptTimeout(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  let request: http.ClientRequest | undefined;
  try {
    const target = await Promise.race([resolveTarget(endpoint, opts), deadline]);
    // Pinned: whatever name the URL carries (and TLS verifies), the socket goes to this address.
    const lookup: LookupFunction = (_host, options, cb) => {
      if ((options as { all?: boolean }).all)
        (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
          { address: target.address, family: target.family },
        ]);
      else cb(null, target.address, target.family);
    };
    const payload = Buffer.from(body, 'utf8');
    const send = new Promise<SendResult>((resolve, reject) => {
      const mod = target.url.protocol === 'https:' ? https : http;
      request = mod.request(
        target.url,
        {
          method: 'POST',
          agent: false,
          lookup,
          headers: {
            'content-type': 'application/json',
            'content-length': String(payload.length),
            'user-agent': 'Corridor-Webhooks/1.0',
            [SIGNATURE_HEADER]: signature,
            ...(opts.traceParent ? { traceparent: opts.traceParent } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const done = () =>
            resolve({ status: res.statusCode, latencyMs: elapsed(), body: Buffer.concat(chunks).toString('utf8') });
          res.on('data', (chunk: Buffer) => {
            if (size >= RESPONSE_CAP_BYTES) return;
            chunks.push(chunk.subarray(0, RESPONSE_CAP_BYTES - size));
            size += Math.min(chunk.length, RESPONSE_CAP_BYTES - size);
            if (size >= RESPONSE_CAP_BYTES) {
              res.destroy();
              done();
            }
          });
          res.on('end', done);
          res.on('error', done); // the status arrived; a broken body does not change the outcome
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
    return await Promise.race([send, deadline]);
  } catch (err) {
    request?.destroy();
    return { error: describe(err), latencyMs: elapsed(), body: '' };
  } finally {
    clearTimeout(timer);
  }
}

// Why an attempt got no answer, in our words: a system error's own message names the address
// the socket tried (and so what the endpoint's name resolved to), which must not reach a caller
// or the stored attempt. The error code says enough to act on.
const SOCKET_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the endpoint',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection closed by the endpoint',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
  HPE_INVALID_CONSTANT: 'the endpoint did not answer HTTP',
};

export function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { errors?: unknown[] };
  if (e?.errors?.length) return describe(e.errors[0]); // AggregateError from dual-stack connects
  if (err instanceof TargetRefused || err instanceof AttemptTimeout) return err.message;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  if (!code) return 'the connection failed';
  if (SOCKET_ERRORS[code]) return `${code}: ${SOCKET_ERRORS[code]}`;
  if (/CERT|TLS|SSL|ALTNAME|SIGNATURE/.test(code)) return `${code}: the TLS handshake failed`;
  if (code.startsWith('HPE_')) return `${code}: the endpoint's answer is not valid HTTP`;
  return `${code}: the connection failed`;
}
