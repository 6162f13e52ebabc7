// The production server's HTTP layer in front of Next.js's request handler (scripts/server.mjs).
// Some requests never reach a route handler: node:http refuses what it cannot parse (an unknown
// method, headers over the limit, a broken chunked body, a timeout) with an empty answer or a
// reset, and Next.js answers a path whose percent-escapes are not UTF-8 (`/customers/%ff`) or a
// method like TRACE with a plain-text 500. Here each gets the API's error body
// `{status, code, message}` with its retry hint instead, and timeouts keep a request that never
// completes from holding a connection for minutes.
import http from 'node:http';

/** The API's base path (lib/core/mode.ts API_BASE). */
export const API_BASE = '/api/2025-10-13';

/** Request line and headers together; beyond it: 431. */
export const MAX_HEADER_SIZE = 16 * 1024;
/** A client has this long to send its request line and headers (slow-header clients). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** And this long for the whole request, body included (a 12 MiB document on a slow link). */
export const REQUEST_TIMEOUT_MS = 120_000;
/** Longer than common proxies' idle timeouts, so a proxy never reuses a socket we just closed. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** The methods the API and the pages answer; others are refused before Next.js sees them. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const ALLOW = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/** The codes answered here and their statuses: the same as in lib/http/errors.ts (a test holds them equal). */
export const EDGE_ERRORS = {
  INVALID_INPUT: 400,
  REFERENCE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  REQUEST_HEADERS_TOO_LARGE: 431,
};
const REASONS = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

function errorHeaders(code, body, extra = {}) {
  return {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    // Only a timeout can go better on a second try; a malformed request stays malformed.
    'x-should-retry': String(code === 'REQUEST_TIMEOUT'),
    ...extra,
  };
}

const errorJson = (code, message, details) =>
  JSON.stringify({ status: EDGE_ERRORS[code], code, message, ...(details ? { details } : {}) });

/**
 * What a worker-only process (CORRIDOR_WORKER=only) serves: its liveness, readiness and metrics,
 * for the orchestrator and Prometheus. The API, the console and the wallet are the servers'.
 */
export const WORKER_ONLY_PATHS = new Set(['/api/health', '/api/ready', '/metrics']);

/** Why a parsed request is refused before Next.js, or null to pass it on. */
export function refusal(req, { workerOnly = false } = {}) {
  if (!METHODS.has(req.method))
    return {
      code: 'METHOD_NOT_ALLOWED',
      message: `${String(req.method).slice(0, 32)} is not supported; allowed: ${ALLOW}`,
      headers: { allow: ALLOW },
    };
  if (req.httpVersion === '1.1' && req.headers.host === undefined)
    return { code: 'INVALID_INPUT', message: 'An HTTP/1.1 request must carry a Host header' };
  const url = req.url ?? '';
  if (!url.startsWith('/')) return workerOnly ? onlyTheWorker(url) : null;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (workerOnly && !WORKER_ONLY_PATHS.has(path)) return onlyTheWorker(path);
  if (decoded(path) === null)
    return { code: 'INVALID_INPUT', message: 'The request path is not valid percent-encoded UTF-8' };
  // Next.js rewrites such a query escape to U+FFFD before a route sees it: a filter value (or a
  // parameter name) silently changed. Under the API it is refused, naming the parameter.
  if (q >= 0 && (path === API_BASE || path.startsWith(API_BASE + '/'))) {
    for (const pair of url.slice(q + 1).split('&')) {
      const eq = pair.indexOf('=');
      const key = decoded(eq < 0 ? pair : pair.slice(0, eq));
      if (key !== null && (eq < 0 || decoded(pair.slice(eq + 1)) !== null)) continue;
      const field = key ?? '(query)';
      const message = 'is not valid percent-encoded UTF-8';
      return {
        code: 'INVALID_INPUT',
        message: `Invalid query parameter: ${field.slice(0, 64)} ${message}`,
        details: { errors: [{ field, message }] },
      };
    }
  }
  return null;
}

const onlyTheWorker = (path) => ({
  code: 'REFERENCE_NOT_FOUND',
  message:
    `${String(path).slice(0, 128)} is not served here: this process runs the background worker only ` +
    '(CORRIDOR_WORKER=only) and answers /api/health, /api/ready and /metrics; send requests to the servers',
});

function decoded(part) {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** Why node:http could not take a request, as an error body. */
function clientErrorOf(err) {
  if (err.code === 'HPE_HEADER_OVERFLOW')
    return {
      code: 'REQUEST_HEADERS_TOO_LARGE',
      message: `The request line and headers exceed ${MAX_HEADER_SIZE / 1024} KiB`,
    };
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { code: 'REQUEST_TIMEOUT', message: 'The request was not received completely in time' };
  if (err.code === 'HPE_INVALID_METHOD')
    return { code: 'METHOD_NOT_ALLOWED', message: `Unknown method; allowed: ${ALLOW}`, headers: { allow: ALLOW } };
  return { code: 'INVALID_INPUT', message: `Malformed HTTP request (${String(err.code ?? 'parse error')})` };
}

/** An answer written straight to a socket node:http has given up parsing, then closed. */
function rawAnswer({ code, message, headers }) {
  const body = errorJson(code, message);
  const status = EDGE_ERRORS[code];
  const lines = Object.entries({ ...errorHeaders(code, body, headers), connection: 'close' }).map(
    ([k, v]) => `${k}: ${v}`,
  );
  return `HTTP/1.1 ${status} ${REASONS[status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

const LINGER_MS = 5_000;

/**
 * Closes after the answer without a reset: a socket closed with unread input sends RST, and the
 * client (still sending its oversized headers, say) may lose the answer. Input keeps being read
 * and dropped until the client closes, for a few seconds at most.
 */
function endGracefully(socket, text) {
  socket.end(text);
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * An answer written before its request's body has fully arrived closes the connection after it.
 * Kept open, node:http would go on reading the rest of the announced body from the socket, and the
 * next request's first bytes would be taken for it: a body shorter than its Content-Length, refused
 * once it stalled, made the following request on that connection answer 405 "Unknown method".
 */
function closeUnlessBodyComplete(req, res) {
  if (req.complete) return; // no body, or all of it already received: the connection stays in step
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    if (!req.complete) this.setHeader('connection', 'close');
    return writeHead.apply(this, args);
  };
}

/**
 * Headers and body leave in one write. Next.js sends the headers on their own (flushHeaders, as
 * its first body chunk arrives), then the body and the end a moment later: two system calls per
 * answer where one does, and on a busy server each costs about as much CPU as the statement it
 * answers (~6% of a payment flow's server CPU, measured with --cpu-prof). The socket is corked for
 * the rest of the current turn of the event loop: an answer complete by then goes out whole, one
 * still streaming gets its headers at the end of the turn, as good as at once.
 */
function coalesceHeaders(res) {
  const flushHeaders = res.flushHeaders;
  res.flushHeaders = function () {
    const socket = this.socket;
    if (socket && !this.headersSent) {
      socket.cork();
      process.nextTick(() => socket.uncork());
    }
    return flushHeaders.call(this);
  };
}

/** `workerOnly`: the process runs the worker only (CORRIDOR_WORKER=only); see WORKER_ONLY_PATHS. */
export function createServer(handle, { workerOnly = false } = {}) {
  const inFlight = new WeakMap(); // socket -> the response being produced on it
  const answered = new WeakSet();
  const listener = (req, res) => {
    closeUnlessBodyComplete(req, res);
    const refused = refusal(req, { workerOnly });
    if (refused) {
      const body = errorJson(refused.code, refused.message, refused.details);
      res.writeHead(EDGE_ERRORS[refused.code], errorHeaders(refused.code, body, refused.headers));
      res.end(body);
      return;
    }
    coalesceHeaders(res);
    inFlight.set(req.socket, res);
    res.on('finish', () => inFlight.get(req.socket) === res && inFlight.delete(req.socket));
    handle(req, res);
  };
  const server = http.createServer(
    {
      maxHeaderSize: MAX_HEADER_SIZE,
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      // How often those timeouts are checked (node's default, 30 s, would let them run late).
      connectionsCheckingInterval: 1_000,
      // Checked in refusal() instead, to answer with the error body rather than node's empty 400.
      requireHostHeader: false,
    },
    listener,
  );
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // `Expect` other than 100-continue: node answers an empty 417; the request is served instead
  // (RFC 9110 lets a server ignore an expectation it does not know).
  server.on('checkExpectation', listener);
  server.on('clientError', (err, socket) => {
    // node:http reports a parse error once per chunk received after it: answer the first only.
    if (answered.has(socket)) return;
    answered.add(socket);
    const res = inFlight.get(socket);
    if (err.code === 'ECONNRESET' || !socket.writable || res?.headersSent) return socket.destroy();
    const text = rawAnswer(clientErrorOf(err));
    // A handler still waiting on this request's body gets a read error and its answer goes nowhere.
    if (res) socket.end(text, () => socket.destroy());
    else endGracefully(socket, text);
  });
  // CONNECT (proxy tunnels) and protocol upgrades (WebSocket, h2c): node resets the connection
  // without a word when nothing listens; the API has neither.
  server.on('connect', (req, socket) =>
    endGracefully(
      socket,
      rawAnswer({
        code: 'METHOD_NOT_ALLOWED',
        message: `CONNECT is not supported; allowed: ${ALLOW}`,
        headers: { allow: ALLOW },
      }),
    ),
  );
  server.on('upgrade', (req, socket) =>
    endGracefully(
      socket,
      rawAnswer({
        code: 'INVALID_INPUT',
        message: `Protocol upgrade (${String(req.headers.upgrade).slice(0, 32)}) is not supported: send the request without Upgrade`,
      }),
    ),
  );
  return server;
}
