import type * as Otel from '@opentelemetry/api';

// Traces (OpenTelemetry; issue 28). Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then
// instrumentation.ts loads the SDK (lib/ops/tracing.ts) and hands its tracer here. Off, none of
// the SDK is loaded (this file imports the API's types only) and every hook below costs the
// callers one property read, no allocation: the database pools (a span per statement, under the span of the
// request or job that runs it), the request wrapper (lib/http/request-log.ts: a span per request),
// the job queue (a job remembers the span that enqueued it; the worker's span links to it) and
// webhook delivery (an event remembers the span that recorded it; each attempt's span links to it).

export interface Tracing {
  /** The OpenTelemetry API, passed in so that nothing here loads it when tracing is off. */
  api: typeof Otel;
  tracer: Otel.Tracer;
  /** Sends the spans not yet exported and stops tracing (a server stopping: scripts/server.mjs). */
  shutdown(): Promise<void>;
}

// On globalThis, like the app's instance (lib/core/context.ts): Next.js bundles instrumentation.ts
// and every route separately, and all of them must see the one tracer the process started.
const holder = globalThis as unknown as { __corridorTracing?: Tracing };
// An own property, even while off: reading a property globalThis lacks walks its prototype chain,
// and this is read once per statement.
if (!('__corridorTracing' in holder)) holder.__corridorTracing = undefined;

export function setTracing(tracing: Tracing | undefined): void {
  holder.__corridorTracing = tracing;
}

/** The process's tracing, or undefined when it is off. */
export function tracing(): Tracing | undefined {
  return holder.__corridorTracing;
}

/** What the pools pass for a statement: pg's query config or its text. */
type StatementConfig = string | { text?: string; name?: string } | undefined;

const MAX_TEXT = 2048;
const summaries = new Map<string, { name: string; op: string }>();
const OPERATION = /^\s*(\w+)/;
const NAME = '(?:"[^"]+"|\\w+)(?:\\.(?:"[^"]+"|\\w+))?';
const TARGET = new RegExp(`\\b(?:FROM|INTO|UPDATE)\\s+(${NAME})`, 'i');
/** The write a `WITH …` statement does, if any: its operation and table. */
const CTE_WRITE = new RegExp(`\\b(INSERT\\s+INTO|(?<!FOR\\s+)UPDATE|DELETE\\s+FROM)\\s+(${NAME})`, 'i');
const NO_TARGET = new Set(['BEGIN', 'COMMIT', 'ROLLBACK', 'SET', 'RESET', 'DEALLOCATE']);

/**
 * A span's name for a statement: its operation and first table (`SELECT Job`; a `WITH` that
 * writes is named by its write: `INSERT Customer`), the summary OpenTelemetry's database
 * conventions ask for. Worked out once per distinct text.
 */
function summaryOf(text: string): { name: string; op: string } {
  let summary = summaries.get(text);
  if (summary === undefined) {
    let op = OPERATION.exec(text)?.[1]?.toUpperCase() ?? 'SQL';
    let target: string | undefined;
    const write = op === 'WITH' ? CTE_WRITE.exec(text) : null;
    if (write) {
      op = write[1].split(/\s/)[0].toUpperCase();
      target = write[2];
    } else if (!NO_TARGET.has(op)) {
      target = TARGET.exec(text)?.[1];
      if (op === 'WITH') op = 'SELECT';
    }
    // "public"."Customer" → Customer
    const table = target?.split('.').at(-1)?.replace(/"/g, '');
    summary = { name: table ? `${op} ${table}` : op, op };
    if (summaries.size < 2_000) summaries.set(text, summary);
  }
  return summary;
}

/**
 * A span for one statement, child of the current span; undefined when no request or job is being
 * traced here (the worker's polls and housekeeping would otherwise each make a trace of their own).
 * The statement's text goes on the span (its values never do: they are parameters).
 */
function startStatement(t: Tracing, config: StatementConfig): Otel.Span | undefined {
  const parent = t.api.context.active();
  if (!t.api.trace.getSpan(parent)) return undefined;
  const text = (typeof config === 'string' ? config : config?.text) ?? '';
  const summary = summaryOf(text);
  return t.tracer.startSpan(
    summary.name,
    {
      kind: t.api.SpanKind.CLIENT,
      attributes: {
        'db.system.name': 'postgresql',
        'db.operation.name': summary.op,
        'db.query.text': text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text,
      },
    },
    parent,
  );
}

function endStatement(t: Tracing, span: Otel.Span, err?: unknown): void {
  if (err !== undefined) {
    // The SQLSTATE only: a driver's message may quote a value of the statement.
    const code = (err as { code?: unknown })?.code;
    const type = typeof code === 'string' ? code : 'error';
    span.setAttribute('error.type', type);
    if (typeof code === 'string') span.setAttribute('db.response.status_code', code);
    span.setStatus({ code: t.api.SpanStatusCode.ERROR, message: type });
  }
  span.end();
}

/** `run` (one statement, answered by its promise) inside a statement span (see startStatement). */
export function traceStatement<T>(t: Tracing, config: StatementConfig, run: () => Promise<T>): Promise<T> {
  const span = startStatement(t, config);
  if (!span) return run();
  let result: Promise<T>;
  try {
    result = run();
  } catch (err) {
    endStatement(t, span, err);
    throw err;
  }
  return result.then(
    (value) => {
      endStatement(t, span);
      return value;
    },
    (err: unknown) => {
      endStatement(t, span, err);
      throw err;
    },
  );
}

type QueryFn = (...args: unknown[]) => unknown;
interface Checkout {
  query: QueryFn;
  release: (...args: never[]) => unknown;
}

/**
 * A connection handed out for a transaction (the pools' connect()), its statements traced until it
 * is released: the pool's own statements on the same connection afterwards are traced where they
 * are sent (traceStatement), not twice.
 */
export function traceCheckout<C extends Checkout>(t: Tracing, client: C): C {
  const own = client as unknown as { query?: QueryFn; release: Checkout['release'] };
  const query = client.query;
  const release = client.release;
  own.query = function (this: unknown, ...args: unknown[]) {
    const config = args[0] as StatementConfig & { submit?: unknown };
    const last = args.length - 1;
    // A cursor or stream (submittable), or pg's callback form: passed through untraced. The driver
    // adapter and the project's code use the promise form.
    if ((config && typeof config === 'object' && 'submit' in config) || typeof args[last] === 'function')
      return query.apply(this, args);
    return traceStatement(t, config, () => query.apply(this, args) as Promise<unknown>);
  };
  own.release = function (this: unknown, ...args: never[]) {
    delete own.query;
    own.release = release;
    return release.apply(this, args);
  };
  return client;
}

/** The W3C traceparent of the current span, or undefined when nothing is traced here. */
export function currentTraceParent(): string | undefined {
  const t = tracing();
  if (!t) return undefined;
  const sc = t.api.trace.getSpanContext(t.api.context.active());
  if (!sc || !t.api.isSpanContextValid(sc)) return undefined;
  return `00-${sc.traceId}-${sc.spanId}-${sc.traceFlags.toString(16).padStart(2, '0')}`;
}

const TRACE_PARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

function spanContextOf(t: Tracing, traceParent: string | null | undefined): Otel.SpanContext | undefined {
  const m = traceParent ? TRACE_PARENT.exec(traceParent) : null;
  if (!m) return undefined;
  const sc = { traceId: m[1], spanId: m[2], traceFlags: parseInt(m[3], 16), isRemote: true };
  return t.api.isSpanContextValid(sc) ? sc : undefined;
}

/**
 * Runs background work (a job, or a batch of jobs of one kind) in a span of its own — a new trace,
 * since it runs long after and apart from what asked for it — linked to the spans that enqueued it
 * (their `traceParent`s). Without tracing, just runs `fn` (`describe` is only called when on).
 */
export function runLinked<T>(
  name: string,
  describe: () => { attributes: Record<string, string | number>; traceParents: readonly (string | null)[] },
  fn: () => Promise<T>,
): Promise<T> {
  const t = tracing();
  if (!t) return fn();
  const { attributes, traceParents } = describe();
  const links: Otel.Link[] = [];
  for (const parent of traceParents) {
    const context = spanContextOf(t, parent);
    if (context) links.push({ context });
  }
  const root = t.api.ROOT_CONTEXT;
  const span = t.tracer.startSpan(name, { kind: t.api.SpanKind.CONSUMER, attributes, links }, root);
  return t.api.context.with(t.api.trace.setSpan(root, span), fn).finally(() => span.end());
}

/** The W3C traceparent naming `span`. */
function traceParentOf(span: Otel.Span): string {
  const sc = span.spanContext();
  return `00-${sc.traceId}-${sc.spanId}-${sc.traceFlags.toString(16).padStart(2, '0')}`;
}

/** What an outgoing call's span records when it is done: its outcome, and the kind of failure. */
export interface OutgoingOutcome {
  attributes: Record<string, string | number>;
  /** Set when the call failed: a low-cardinality kind (an HTTP status, an error code), never a message. */
  errorType?: string;
}

/**
 * Runs an outgoing call made for earlier work (a webhook delivery attempt) in a CLIENT span: under
 * the current span when there is one (a replay or a test send made within a request), else a trace
 * of its own, as the worker makes it; linked to the spans that caused it (their `traceParent`s).
 * `fn` gets the span's traceparent to send along; `finish` reads the outcome off its result.
 * Without tracing, just runs `fn` (nothing else is called).
 */
export function runOutgoing<T>(
  name: string,
  describe: () => { attributes: Record<string, string | number>; traceParents: readonly (string | null)[] },
  fn: (traceParent: string | undefined) => Promise<T>,
  finish: (result: T) => OutgoingOutcome,
): Promise<T> {
  const t = tracing();
  if (!t) return fn(undefined);
  const { api } = t;
  const { attributes, traceParents } = describe();
  const links: Otel.Link[] = [];
  for (const parent of traceParents) {
    const context = spanContextOf(t, parent);
    if (context) links.push({ context });
  }
  const parent = api.context.active();
  const span = t.tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes, links }, parent);
  const failed = (type: string) => {
    span.setAttribute('error.type', type);
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: type });
  };
  return api.context
    .with(api.trace.setSpan(parent, span), () => fn(traceParentOf(span)))
    .then(
      (result) => {
        const outcome = finish(result);
        span.setAttributes(outcome.attributes);
        if (outcome.errorType !== undefined) failed(outcome.errorType);
        return result;
      },
      (err: unknown) => {
        failed(err instanceof Error ? err.name : 'error');
        throw err;
      },
    )
    .finally(() => span.end());
}

/**
 * Runs a command called from a surface other than the API's route wrapper (a console server
 * action, a wallet route, an MCP tool) in a span of its own: a child of the current span when
 * there is one (the span Next.js opened for the action, or the request's), otherwise a new trace
 * — so the command's statements and the calls it makes (a replayed webhook's attempt) are traced
 * whether or not Next.js opened a span. Without tracing, just runs `fn`.
 */
export function runCommandSpan<T>(name: string, attributes: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const t = tracing();
  if (!t) return fn();
  const { api } = t;
  const parent = api.context.active();
  const kind = api.trace.getSpan(parent) ? api.SpanKind.INTERNAL : api.SpanKind.SERVER;
  const span = t.tracer.startSpan(`command ${name}`, { kind, attributes }, parent);
  return api.context
    .with(api.trace.setSpan(parent, span), fn)
    .catch((err: unknown) => {
      const type = err instanceof Error ? err.name : 'error';
      span.setAttribute('error.type', type);
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: type });
      throw err;
    })
    .finally(() => span.end());
}

/** Marks the current span failed (a job whose handler threw), naming the error's kind only. */
export function currentSpanFailed(err: unknown): void {
  const t = tracing();
  const span = t?.api.trace.getActiveSpan();
  if (!t || !span) return;
  const type = err instanceof Error ? err.name : 'error';
  span.setAttribute('error.type', type);
  span.setStatus({ code: t.api.SpanStatusCode.ERROR, message: type });
}

/**
 * Runs one request's handling in a span: a child of the span Next.js opened for it (when it did),
 * otherwise of the caller's trace (a `traceparent` header), otherwise a new trace. `finish` gets
 * the span to record the outcome on before it ends.
 */
export async function runRequestSpan<T>(
  t: Tracing,
  name: string,
  headers: Headers,
  attributes: Record<string, string>,
  fn: () => Promise<T>,
  finish: (span: Otel.Span, result: T) => void,
): Promise<T> {
  const { api } = t;
  let parent = api.context.active();
  const local = api.trace.getSpan(parent);
  if (!local) parent = api.propagation.extract(parent, headers, HEADERS_GETTER);
  const kind = local && !local.spanContext().isRemote ? api.SpanKind.INTERNAL : api.SpanKind.SERVER;
  const span = t.tracer.startSpan(name, { kind, attributes }, parent);
  try {
    const result = await api.context.with(api.trace.setSpan(parent, span), fn);
    finish(span, result);
    return result;
  } catch (err) {
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
    throw err;
  } finally {
    span.end();
  }
}

const HEADERS_GETTER: Otel.TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
};
