import { z } from 'zod';
import { authenticate, requirePermission, type AuthMode } from './authenticate';
import { runAs, type Permission, type Actor } from '../core/context';
import { WALL_CLOCK } from '../core/clock';
import { isTransactionTimeout, isUniqueViolation, pgCode } from '../core/db';
import { readJsonBody, readMultipartBody } from './body';
import { clientAddress } from './client-address';
import { DomainError, invalidInput } from '../core/errors';
import { EdgeError, ERROR_STATUS, errorBody, errorHeaders, shouldRetry } from './errors';
import { runCommandHere, scopedKey, type Command } from '../core/command';
import { API_BASE, isSandbox } from '../core/mode';
export { API_BASE, isSandbox };
import * as idempotency from '../core/keyed';
import type { SignedRequest } from '../wallet-auth/signed-retry';
import { stampHeader } from '../wallet-auth/stamp';
import { canonicalJson, stringifyJson } from '../core/json';
import { checkTextValues, parseBodyOrThrow, parseOrThrow, parseQueryOrThrow } from '../core/validation';
import { log } from '../core/log';
import { logged, noteActor, requestIdOf } from './request-log';

// The one wrapper every route handler goes through: authenticate, check the permission, parse
// and validate input with zod, apply Idempotency-Key, run the handler as the caller, map errors
// to the error table, serialize losslessly. Route files stay thin: a definition and a handler.
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

type AnyObject = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  headers?: Record<string, string>;
}

export interface EndpointDef<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  method: Method;
  /** Path below the base, in the reference's spelling, e.g. `/customers/{customerId}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Who may call: platform API tokens (default), agents, or anyone. */
  auth?: AuthMode | 'none';
  permission?: Permission;
  sandboxOnly?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  bodyType?: 'json' | 'multipart';
  idempotent?: boolean;
  /** The reference requires the Idempotency-Key on this operation: a request without one is refused. */
  keyRequired?: boolean;
  /** Extra request headers the operation reads (documentation only). */
  headers?: Record<string, string>;
  responses: Record<number, ResponseDoc>;
  /** Our own extension of the interface, flagged in the served OpenAPI document. */
  extension?: boolean;
}

export interface HandlerInput<P, Q, B> {
  req: Request;
  params: P;
  query: Q;
  body: B;
  /** Exact body text (JSON bodies). */
  rawBody: string;
  /** The request as a wallet's signed retry binds it (services take this, never `req`). */
  signed: SignedRequest;
  actor: Actor;
  /**
   * The path parameters, query and JSON body as received, before the route's schemas: a command
   * parses its input itself, and a schema with a transform (a query flag's "true" to true) does not
   * take its own output again.
   */
  raw: { params: Record<string, unknown>; query: Record<string, unknown>; body: unknown };
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown, headers?: Record<string, string>): Reply => ({ status: 200, body, headers });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const accepted = (body: unknown): Reply => ({ status: 202, body });
export const noContent = (): Reply => ({ status: 204 });

type RouteContext = { params: Promise<Record<string, string | string[]>> };
export type RouteHandler = (req: Request, ctx: RouteContext) => Promise<Response>;
export type Endpoint = RouteHandler & {
  def: EndpointDef<z.ZodType, z.ZodType, z.ZodType>;
  /** The command the operation runs (commandEndpoint); tests/commands-coverage.test.ts requires one. */
  command?: Command;
};

function jsonResponse(status: number, text: string | null, headers: Record<string, string> = {}): Response {
  // Every error answer carries the retry hint; one without it here is a stored answer replayed
  // under its Idempotency-Key, which a retry would only replay again (5xx are never stored).
  if (status >= 400 && !headers['x-should-retry']) headers = { ...headers, 'x-should-retry': String(status >= 500) };
  if (status === 204 || text === null) return new Response(null, { status, headers });
  return new Response(text, { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

/** A domain error's answer: its status, the error body and the headers (the retry hint among them). */
export function errorAnswer(err: DomainError): idempotency.Answer {
  return {
    status: ERROR_STATUS[err.code],
    text: stringifyJson(errorBody(err)),
    headers: { ...errorHeaders(err), 'x-should-retry': String(shouldRetry(err)) },
  };
}

export function errorResponse(err: DomainError): Response {
  const a = errorAnswer(err);
  return jsonResponse(a.status, a.text, a.headers);
}

/** Any error as the domain error answered for it: unknown errors are logged and become 500 INTERNAL_ERROR. */
export function toDomainError(err: unknown, req: Request): DomainError {
  if (err instanceof DomainError) return err;
  if (isUniqueViolation(err)) return new DomainError('CONFLICT', 'The request conflicts with an existing record');
  // The database held the transaction up past its timeout; it was rolled back, nothing changed.
  if (isTransactionTimeout(err))
    return new DomainError(
      'SERVICE_UNAVAILABLE',
      'The database did not complete the request in time and nothing was changed; retry (with the same Idempotency-Key)',
      undefined,
      { retryAfterSeconds: 1 },
    );
  // Text the database cannot store (checked at the boundary; this is the backstop).
  const code = pgCode(err);
  if (code === '22021' || code === '22P05')
    return new DomainError('INVALID_INPUT', 'The request contains characters that cannot be stored');
  // A number or time beyond what the database stores (a balance past int64, a time before year 1):
  // the transaction rolled back, so nothing was written.
  if (code === '22003' || code === '22008' || code === '22009')
    return new DomainError('INVALID_INPUT', 'A value in the request is out of the range this service can store');
  // The request's own line (lib/http/request-log.ts) names its route; this one carries the cause.
  log().error({ reqId: requestIdOf(req), method: req.method, err }, 'request failed with an unexpected error');
  return new DomainError('INTERNAL_ERROR', 'Internal error; the request was not completed');
}

/** Longest query parameter value accepted (proxies commonly refuse URLs beyond 8 KiB anyway). */
const MAX_QUERY_VALUE = 2048;

function queryObject(url: URL): Record<string, string | string[]> {
  // No prototype: `?__proto__=x` is a parameter like any other (and refused as unknown).
  const out: Record<string, string | string[]> = Object.create(null);
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    const long = all.find((v) => v.length > MAX_QUERY_VALUE);
    if (long !== undefined)
      throw invalidInput(`Invalid query parameter: ${key} must be at most ${MAX_QUERY_VALUE} characters`, [
        {
          field: key,
          message: `must be at most ${MAX_QUERY_VALUE} characters`,
          constraint: { maxLength: MAX_QUERY_VALUE },
        },
      ]);
    out[key] = all.length === 1 ? all[0] : all;
  }
  return out;
}

function multipartObject(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of form.entries()) out[k] = v;
  return out;
}

/** The method, decoded path, exact body and signed-retry headers of a request (lib/wallet-auth/signed-retry.ts). */
function signedRequest(req: Request, url: URL, rawBody: string): SignedRequest {
  let path = url.pathname;
  try {
    path = decodeURIComponent(path); // %3A and : name the same resource
  } catch {
    // a malformed escape stays as sent; it can only match itself
  }
  return {
    method: req.method.toUpperCase(),
    path,
    rawBody,
    stamp: stampHeader(req.headers),
    requestId: req.headers.get('request-id')?.trim() || null,
  };
}

/** What a route gets: its validated input, and the body as read (for idempotency's comparison). */
async function readInput(
  def: EndpointDef<z.ZodType, z.ZodType, z.ZodType>,
  req: Request,
  ctx: RouteContext,
  actor: Actor,
): Promise<{ input: HandlerInput<unknown, unknown, unknown>; rawValue: unknown; url: URL }> {
  const url = new URL(req.url);
  // Next.js gives routes without dynamic segments no params at all.
  const rawParams = (await ctx?.params) ?? {};
  checkTextValues(rawParams, 'path parameter');
  const params = def.params ? parseOrThrow(def.params, rawParams, 'path parameter') : rawParams;
  const rawQuery = queryObject(url);
  checkTextValues(rawQuery, 'query parameter');
  const query = def.query ? parseQueryOrThrow(def.query, rawQuery) : {};
  let body: unknown = undefined;
  let rawBody = '';
  let rawValue: unknown = undefined;
  if (def.bodyType === 'multipart') {
    body = parseOrThrow(def.body ?? z.any(), multipartObject(await readMultipartBody(req)), 'form field');
  } else if (def.body) {
    const read = await readJsonBody(req);
    rawBody = read.text;
    rawValue = read.value;
    body = parseBodyOrThrow(def.body, read.value);
  }
  const signed = signedRequest(req, url, rawBody);
  const raw = { params: rawParams, query: rawQuery, body: rawValue };
  return { input: { req, params, query, body, rawBody, signed, actor, raw }, rawValue, url };
}

type Input<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = HandlerInput<
  z.output<P>,
  z.output<Q>,
  z.output<B>
>;

/**
 * An operation that takes an Idempotency-Key: its handler returns the service's result and
 * `answer` turns that into the reply. `answer` must be a pure function of the result: the
 * operation's effect records `answer(result)` under the key in its own transaction, and that is
 * what every repeat of the key gets (lib/core/idempotency.ts).
 */
export function endpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R>(
  def: EndpointDef<P, Q, B> & { idempotent: true; answer: (result: R) => Reply },
  handler: (input: Input<P, Q, B>) => Promise<R>,
): Endpoint;
export function endpoint<
  P extends z.ZodType = AnyObject,
  Q extends z.ZodType = AnyObject,
  B extends z.ZodType = z.ZodUndefined,
>(def: EndpointDef<P, Q, B> & { idempotent?: false }, handler: (input: Input<P, Q, B>) => Promise<Reply>): Endpoint;
export function endpoint(
  def: EndpointDef<z.ZodType, z.ZodType, z.ZodType> & { answer?: (result: unknown) => Reply },
  handler: (input: HandlerInput<unknown, unknown, unknown>) => Promise<unknown>,
): Endpoint {
  const toReply = (result: unknown): Reply => (def.answer ? def.answer(result) : (result as Reply));
  const run: RouteHandler = async (req, ctx) => {
    try {
      if (def.sandboxOnly && !isSandbox())
        throw new DomainError('FORBIDDEN', 'Sandbox endpoints are not available in production mode');
      const actor: Actor =
        def.auth === 'none'
          ? { kind: 'system', platformId: '', ...WALL_CLOCK }
          : await authenticate(req.headers.get('authorization'), def.auth ?? 'platform', clientAddress(req.headers));
      noteActor(req, actor);
      requirePermission(actor, def.permission);
      return await runAs(actor, async () => {
        const { input, rawValue, url } = await readInput(def, req, ctx, actor);
        const key = def.idempotent ? req.headers.get('idempotency-key') : null;
        if (key === null && def.keyRequired)
          throw invalidInput('This operation requires an Idempotency-Key header', [
            { field: 'Idempotency-Key', message: 'is required' },
          ]);
        if (key === null) {
          const reply = toReply(await handler(input));
          return jsonResponse(reply.status, replyText(reply), reply.headers);
        }
        // By content, not bytes: a retry re-serialising the same JSON (key order, spacing) is the same request.
        const hash = idempotency.requestHash(
          req.method,
          url.pathname,
          rawValue === undefined ? '' : canonicalJson(rawValue),
        );
        // Keys are the platform's, shared by its API tokens; an agent chooses its own keys, so
        // they live in its own space (the same key from the platform or another agent is unrelated).
        const scoped = scopedKey(actor, key);
        idempotency.validateKey(key);
        return runKeyed(def, actor.platformId, scoped, hash, () => handler(input), toReply, req);
      });
    } catch (err) {
      return errorResponse(toDomainError(err, req));
    }
  };
  return Object.assign(logged(def.path, run), { def: def as unknown as EndpointDef<z.ZodType, z.ZodType, z.ZodType> });
}

/**
 * An operation that is a command (lib/<domain>/commands.ts): the route's schemas read the request
 * (and document it), `input` names the command's input in it, and the command runs through the
 * runner — its actor rule (the permission documented from it) and idempotency rule are the
 * command's, so the operation refuses exactly what the command's other surfaces refuse.
 */
export function commandEndpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R>(
  def: Omit<EndpointDef<P, Q, B>, 'permission' | 'idempotent' | 'keyRequired'> & { answer: (result: R) => Reply },
  cmd: Command<z.ZodType, R>,
  input: (i: Input<P, Q, B>) => unknown,
): Endpoint {
  const full = {
    ...def,
    permission: cmd.actors.platform,
    idempotent: cmd.idempotency !== 'none',
    keyRequired: cmd.idempotency === 'required',
  };
  const run = (i: Input<P, Q, B>) => runCommandHere(cmd, i.actor, input(i));
  const command = cmd as Command;
  if (full.idempotent) return Object.assign(endpoint({ ...full, idempotent: true as const }, run), { command });
  const { answer, ...plain } = full;
  return Object.assign(
    endpoint({ ...plain, idempotent: false as const }, async (i) => answer(await run(i))),
    { command },
  );
}

const replyText = (reply: Reply) =>
  reply.status === 204 || reply.body === undefined ? null : stringifyJson(reply.body);

/** A stored answer: a stored error is final (a retry replays it again), so it says not to retry. */
function replayed(status: number, text: string, replay = true): Response {
  return jsonResponse(status, status === 204 ? null : text, {
    ...(replay ? { 'idempotent-replayed': 'true' } : {}),
    ...(status >= 400 ? { 'x-should-retry': 'false' } : {}),
  });
}

/** Runs an operation under its Idempotency-Key (lib/http/idempotency.ts has the protocol). */
async function runKeyed(
  def: EndpointDef<z.ZodType, z.ZodType, z.ZodType>,
  platformId: string,
  key: string,
  hash: string,
  call: () => Promise<unknown>,
  toReply: (result: unknown) => Reply,
  req: Request,
): Promise<Response> {
  const out = await idempotency.runKeyed(
    { label: `${def.method} ${def.path}`, platformId, key, hash },
    call,
    (result) => {
      const reply = toReply(result);
      return { status: reply.status, text: replyText(reply) ?? '', headers: reply.headers };
    },
    (err) => errorAnswer(toDomainError(err, req)),
  );
  if (out.source !== 'fresh') return replayed(out.status, out.text, out.source === 'replay');
  return jsonResponse(out.status, out.status === 204 ? null : out.text, out.headers);
}

/** A JSON 405 naming the methods a path takes. */
export function methodNotAllowed(allowed: Method[]): RouteHandler {
  return async (req) =>
    errorResponse(
      new EdgeError(
        'METHOD_NOT_ALLOWED',
        `${req.method} is not supported here; allowed: ${allowed.join(', ')}`,
        undefined,
        { allow: allowed.join(', ') },
      ),
    );
}

/** A route file's exports: its endpoints by method, and a JSON 405 for every other method. */
export function routes(...endpoints: Endpoint[]): Record<Method, RouteHandler> {
  const allowed = endpoints.map((e) => e.def.method);
  const refuse = logged(endpoints[0]?.def.path ?? '(unknown)', methodNotAllowed(allowed));
  return Object.fromEntries(METHODS.map((m) => [m, endpoints.find((e) => e.def.method === m) ?? refuse])) as Record<
    Method,
    RouteHandler
  >;
}
