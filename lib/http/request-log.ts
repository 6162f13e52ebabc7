import { randomUUID } from 'node:crypto';
import { log, errorText } from '../core/log';
import { currentCorridor } from '../core/context';
import { runRequestSpan, tracing } from '../core/tracing';

// Every answer carries X-Request-Id (a caller's own, when it is a sensible token, else a new one)
// and every request writes one log line under it, so support can find a customer's request from
// the id they quote. The line holds the route's pattern — never the concrete path, its query
// string or the body — the status, the time taken and who asked.
const VALID_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestIdFor(headers: Headers): string {
  const given = headers.get('x-request-id')?.trim();
  return given && VALID_ID.test(given) ? given : randomUUID();
}

interface Note {
  id: string;
  platformId?: string;
  actor?: string;
}
const notes = new WeakMap<Request, Note>();

/** Records who a request acts as, for its log line (the wrapper calls this after authentication). */
export function noteActor(req: Request, actor: { kind: string; platformId: string }): void {
  const note = notes.get(req);
  if (note) {
    note.actor = actor.kind;
    note.platformId = actor.platformId || undefined;
  }
}

/** The id of a request being answered (for log lines written while handling it). */
export function requestIdOf(req: Request): string | undefined {
  return notes.get(req)?.id;
}

function count(route: string, method: string, status: number, seconds: number): void {
  let metrics;
  try {
    metrics = currentCorridor().metrics;
  } catch {
    return; // no instance in this process (a route called by a script): nothing to count in
  }
  const labels = { route, method, status: String(status) };
  metrics.requests.inc(labels);
  metrics.requestSeconds.observe(labels, seconds);
}

function withHeader(res: Response, id: string): Response {
  try {
    res.headers.set('x-request-id', id);
    return res;
  } catch {
    // A response with immutable headers (one passed through from fetch): copy it.
    const copy = new Response(res.body, res);
    copy.headers.set('x-request-id', id);
    return copy;
  }
}

/** `handler` answering with X-Request-Id and one log line per request; `route` is its path pattern. */
export function logged<R extends unknown[]>(
  route: string,
  handler: (req: Request, ...rest: R) => Promise<Response>,
): (req: Request, ...rest: R) => Promise<Response> {
  const answer = async (req: Request, rest: R, note: Note): Promise<Response> => {
    const started = performance.now();
    let res: Response;
    try {
      res = await handler(req, ...rest);
    } catch (err) {
      // Wrappers answer their own errors; this is the backstop for a handler that threw anyway.
      log().error({ reqId: note.id, route, err: errorText(err) }, 'request failed');
      res = new Response(
        JSON.stringify({
          status: 500,
          code: 'INTERNAL_ERROR',
          message: 'Internal error; the request was not completed',
        }),
        { status: 500, headers: { 'content-type': 'application/json; charset=utf-8', 'x-should-retry': 'true' } },
      );
    }
    const seconds = (performance.now() - started) / 1000;
    count(route, req.method, res.status, seconds);
    log().info(
      {
        reqId: note.id,
        method: req.method,
        route,
        status: res.status,
        ms: Math.round(seconds * 10_000) / 10,
        ...(note.platformId ? { platformId: note.platformId } : {}),
        ...(note.actor ? { actor: note.actor } : {}),
      },
      'request',
    );
    return withHeader(res, note.id);
  };
  return (req, ...rest) => {
    const note: Note = { id: requestIdFor(req.headers) };
    notes.set(req, note);
    // Traces on (lib/core/tracing.ts): the request in a span, which its database statements and
    // the jobs it enqueues refer to. Named by the route's pattern, like the log line.
    const traced = tracing();
    if (!traced) return answer(req, rest, note);
    return runRequestSpan(
      traced,
      `${req.method} ${route}`,
      req.headers,
      { 'http.request.method': req.method, 'http.route': route, 'corridor.request_id': note.id },
      () => answer(req, rest, note),
      (span, res) => {
        span.setAttribute('http.response.status_code', res.status);
        if (note.platformId) span.setAttribute('corridor.platform_id', note.platformId);
        if (note.actor) span.setAttribute('corridor.actor', note.actor);
        if (res.status >= 500) span.setStatus({ code: traced.api.SpanStatusCode.ERROR });
      },
    );
  };
}
