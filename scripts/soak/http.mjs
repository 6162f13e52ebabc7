// The soak's HTTP client: one request as an integrator sends it (Basic auth, Idempotency-Key,
// JSON body), repeated with the same key and the same bytes until it gets an answer the client
// must act on. Every attempt is recorded: when it was sent, when it ended, its status and the
// exact bytes of the answer, or the connection error that ended it.

const BASE_PATH = '/api/2025-10-13';
// A client that has had no answer it can act on for this long gives up (reported).
const GIVE_UP_AFTER_MS = 15 * 60_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Answers a client must retry with the same key and body: no answer, server errors, throttling,
 * any answer marked `x-should-retry: true`, and (without that header) a 409 saying the key's
 * request is still in progress.
 */
export function isRetryable(a) {
  if (a.error) return true;
  if (a.status >= 500 || a.status === 429 || a.shouldRetry === 'true') return true;
  return a.status === 409 && a.shouldRetry !== 'false' && /in progress/i.test(a.text);
}

export class Client {
  /**
   * `timeoutMs`: how long the client waits for an answer before it gives the attempt up and
   * retries, as integrators' HTTP clients do (the service must cope with a retry arriving while
   * the first attempt still runs, e.g. blocked on a lock). `base` may list several servers (the
   * soak's --servers): attempts go to each in turn, as behind a load balancer, so a retry after a
   * connection error reaches another server.
   */
  constructor(base, clientId, secret, timeoutMs = 20_000) {
    this.bases = Array.isArray(base) ? base : [base];
    this.turn = 0;
    /** Attempts sent to each server, by base URL. */
    this.sent = Object.fromEntries(this.bases.map((b) => [b, 0]));
    this.auth = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
    this.timeoutMs = timeoutMs;
  }

  /** One attempt; never throws. */
  async attempt(method, path, { key, body } = {}) {
    const sentAt = Date.now();
    const base = this.bases[this.turn++ % this.bases.length];
    this.sent[base]++;
    const headers = { authorization: this.auth };
    if (key) headers['idempotency-key'] = key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await fetch(`${base}${BASE_PATH}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      return {
        sentAt,
        server: base,
        endedAt: Date.now(),
        status: res.status,
        bytes,
        text: bytes.toString('utf8'),
        replayed: res.headers.get('idempotent-replayed') === 'true',
        shouldRetry: res.headers.get('x-should-retry'),
      };
    } catch (err) {
      const timedOut = err?.name === 'TimeoutError';
      return {
        sentAt,
        server: base,
        // An attempt the client gave up may still run on the server: its window stays open.
        endedAt: timedOut ? Infinity : Date.now(),
        error: timedOut ? 'client timeout' : String(err?.cause?.code ?? err?.cause?.message ?? err?.message ?? err),
      };
    }
  }

  /**
   * Sends until the answer is final (see isRetryable), recording every attempt in `attempts`.
   * Returns the final attempt, or null when the client gave up.
   */
  async untilFinal(method, path, { key, body, attempts }) {
    const started = Date.now();
    for (let n = 0; ; n++) {
      const a = await this.attempt(method, path, { key, body });
      attempts.push(a);
      if (!isRetryable(a)) return a;
      if (Date.now() - started > GIVE_UP_AFTER_MS) return null;
      // Connection refused while the server restarts: poll; other retryable answers: back off a little.
      await sleep(a.error ? 250 : Math.min(1000, 100 * (n + 1)));
    }
  }

  /** A setup call without a key: must succeed (retried across restarts like any client would). */
  async must(method, path, body) {
    const attempts = [];
    const a = await this.untilFinal(method, path, {
      body: body === undefined ? undefined : JSON.stringify(body),
      attempts,
    });
    if (!a || a.status >= 300) throw new Error(`${method} ${path} -> ${a ? `${a.status} ${a.text}` : 'no answer'}`);
    return a.text ? JSON.parse(a.text) : undefined;
  }
}

export function parseBody(a) {
  try {
    return a?.text ? JSON.parse(a.text) : undefined;
  } catch {
    return undefined;
  }
}
