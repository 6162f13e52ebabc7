import { z } from 'zod';
import { authenticate, requirePermission, type AuthMode } from '../auth/authenticate';
import { runAs, type Permission, type Principal } from '../core/context';
import { isUniqueViolation, pgCode } from '../core/db';
import { readJsonBody, readMultipartBody } from './body';
import { clientAddress } from './client-address';
import { DomainError, invalidInput } from '../core/errors';
import { ERROR_STATUS, errorBody } from './errors';
import { API_BASE, isSandbox } from '../core/mode';
export { API_BASE, isSandbox };
import * as idempotency from './idempotency';
import { canonicalJson, stringifyJson } from '../core/json';
import { checkTextValues, parseBodyOrThrow, parseOrThrow, parseQueryOrThrow } from '../core/validation';

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
  /** Exact body text (JSON bodies), for signature binding. */
  rawBody: string;
  principal: Principal;
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
export type Endpoint = RouteHandler & { def: EndpointDef<z.ZodType, z.ZodType, z.ZodType> };

function jsonResponse(status: number, text: string | null, headers: Record<string, string> = {}): Response {
  if (status === 204 || text === null) return new Response(null, { status, headers });
  return new Response(text, { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

export function errorResponse(err: DomainError): Response {
  return jsonResponse(ERROR_STATUS[err.code], stringifyJson(errorBody(err)), err.headers);
}

function toApiError(err: unknown, req: Request): DomainError {
  if (err instanceof DomainError) return err;
  if (isUniqueViolation(err)) return new DomainError('CONFLICT', 'The request conflicts with an existing record');
  // Text the database cannot store (checked at the boundary; this is the backstop).
  const code = pgCode(err);
  if (code === '22021' || code === '22P05')
    return new DomainError('INVALID_INPUT', 'The request contains characters that cannot be stored');
  // A number or time beyond what the database stores (a balance past int64, a time before year 1):
  // the transaction rolled back, so nothing was written.
  if (code === '22003' || code === '22008' || code === '22009')
    return new DomainError('INVALID_INPUT', 'A value in the request is out of the range this service can store');
  console.error(`[corridor] ${req.method} ${new URL(req.url).pathname} failed:`, err);
  return new DomainError('INTERNAL_ERROR', 'Internal error; the request was not completed');
}

/** Longest query parameter value accepted (proxies commonly refuse URLs beyond 8 KiB anyway). */
const MAX_QUERY_VALUE = 2048;

function queryObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
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
  const out: Record<string, unknown> = {};
  for (const [k, v] of form.entries()) out[k] = v;
  return out;
}

export function endpoint<
  P extends z.ZodType = AnyObject,
  Q extends z.ZodType = AnyObject,
  B extends z.ZodType = z.ZodUndefined,
>(
  def: EndpointDef<P, Q, B>,
  handler: (input: HandlerInput<z.output<P>, z.output<Q>, z.output<B>>) => Promise<Reply>,
): Endpoint {
  const run: RouteHandler = async (req, ctx) => {
    let principal: Principal | undefined;
    let idemKey: string | undefined;
    try {
      if (def.sandboxOnly && !isSandbox())
        throw new DomainError('FORBIDDEN', 'Sandbox endpoints are not available in production mode');
      principal =
        def.auth === 'none'
          ? { kind: 'system', platformId: '', clockOffsetMs: 0n }
          : await authenticate(req.headers.get('authorization'), def.auth ?? 'platform', clientAddress(req.headers));
      requirePermission(principal, def.permission);
      const p = principal;
      return await runAs(p, async () => {
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
        const keyHeader = def.idempotent ? req.headers.get('idempotency-key') : null;
        if (keyHeader !== null) {
          idemKey = idempotency.validateKey(keyHeader);
          // By content, not bytes: a retry re-serialising the same JSON (key order, spacing) is the same request.
          const hash = idempotency.requestHash(
            req.method,
            url.pathname,
            rawValue === undefined ? '' : canonicalJson(rawValue),
          );
          const replay = await idempotency.begin(p.platformId, idemKey, hash);
          if (replay) {
            idemKey = undefined; // not ours to finish
            return jsonResponse(replay.status, replay.status === 204 ? null : replay.body, {
              'idempotent-replayed': 'true',
            });
          }
        }
        let reply: Reply;
        try {
          reply = await handler({ req, params, query, body, rawBody, principal: p } as HandlerInput<
            z.output<P>,
            z.output<Q>,
            z.output<B>
          >);
        } catch (err) {
          const apiErr = toApiError(err, req);
          if (idemKey)
            await idempotency.finish(
              p.platformId,
              idemKey,
              ERROR_STATUS[apiErr.code],
              stringifyJson(errorBody(apiErr)),
            );
          idemKey = undefined;
          throw apiErr;
        }
        const text = reply.status === 204 || reply.body === undefined ? null : stringifyJson(reply.body);
        if (idemKey) await idempotency.finish(p.platformId, idemKey, reply.status, text ?? '');
        idemKey = undefined;
        return jsonResponse(reply.status, text, reply.headers);
      });
    } catch (err) {
      if (idemKey && principal) await idempotency.abandon(principal.platformId, idemKey).catch(() => {});
      return errorResponse(toApiError(err, req));
    }
  };
  return Object.assign(run, { def: def as unknown as EndpointDef<z.ZodType, z.ZodType, z.ZodType> });
}

function methodNotAllowed(allowed: Method[]): RouteHandler {
  return async (req) =>
    errorResponse(
      new DomainError(
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
  return Object.fromEntries(
    METHODS.map((m) => [m, endpoints.find((e) => e.def.method === m) ?? methodNotAllowed(allowed)]),
  ) as Record<Method, RouteHandler>;
}
