import { expect } from 'vitest';
import { DomainError } from '@/lib/core/errors';
import { errorBody } from '@/lib/http/errors';
import { parseJson, stringifyJson } from '@/lib/core/json';
import { API_BASE } from '@/lib/http/endpoint';
import { PEER_ADDRESS_HEADER } from '@/lib/http/client-address';
import { createPlatform, type NewPlatform } from '@/lib/platform/service';
import * as tokens from '@/lib/tokens/service';
import type { Permission } from '@/lib/core/context';
import { checkResponse } from './conformance';
import { matchRoute } from './router';
import { db } from '@/lib/core/db';

// HTTP-level test client: builds real Requests with real auth headers, dispatches them to the
// real route handlers, parses bodies losslessly, and validates each response against the served
// document and the reference (tests/support/conformance.ts).
/**
 * A parsed JSON body as tests read it: untyped on purpose, since its shape is checked against the
 * reference schema by the conformance helper on every response.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiResponse<T = Json> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** Send this exact text as the body (for malformed-input tests). */
  rawBody?: string | Uint8Array;
  /** Override or drop (null) the Authorization header. */
  authorization?: string | null;
}

const modules = new Map<string, Promise<Record<string, unknown>>>();

export function basic(c: Credentials): string {
  return `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`;
}

export async function dispatch(req: Request): Promise<{ res: Response; template: string }> {
  const url = new URL(req.url);
  if (!url.pathname.startsWith(API_BASE + '/')) throw new Error(`not an API path: ${url.pathname}`);
  const match = matchRoute(url.pathname.slice(API_BASE.length));
  if (!match) throw new Error(`no route for ${url.pathname}`);
  let mod = modules.get(match.route.file);
  if (!mod) modules.set(match.route.file, (mod = import(match.route.file)));
  const handler = (await mod)[req.method] as ((r: Request, c: unknown) => Promise<Response>) | undefined;
  if (!handler) return { res: new Response(null, { status: 405 }), template: match.route.template };
  // As Next.js does: routes without dynamic segments get no params.
  const dynamic = match.route.template.includes('{') || match.route.template.includes('*');
  return {
    res: await handler(req, {
      params: dynamic ? Promise.resolve(match.params) : (undefined as unknown as Promise<Record<string, string>>),
    }),
    template: match.route.template,
  };
}

const hex16 = () => Math.floor(Math.random() * 0x10000).toString(16);

export class Api {
  /**
   * Each test client is its own machine: the source address the server would record for it
   * (scripts/server.mjs), so failed authentications of one test are not counted against another's.
   */
  readonly address: string;
  constructor(
    readonly credentials?: Credentials,
    address?: string,
  ) {
    // A random /64 (throttling counts IPv6 sources per /64), shared by no other test process.
    this.address = address ?? `2001:db8:${hex16()}:${hex16()}::1`;
  }

  async request<T = Json>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(`http://localhost${API_BASE}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { [PEER_ADDRESS_HEADER]: this.address, ...(opts.headers ?? {}) };
    if (opts.authorization !== undefined) {
      if (opts.authorization !== null) headers.authorization = opts.authorization;
    } else if (this.credentials) headers.authorization = basic(this.credentials);
    let body: BodyInit | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody as BodyInit;
    else if (opts.body instanceof FormData) body = opts.body;
    else if (opts.body !== undefined) {
      body = stringifyJson(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const { res, template } = await dispatch(new Request(url, { method, headers, body }));
    const text = await res.text();
    const parsed = text && (res.headers.get('content-type') ?? '').includes('json') ? parseJson(text) : undefined;
    if (template !== '/*') checkResponse(method, template, res.status, parsed);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = Json>(path: string, opts?: RequestOptions) {
    return this.request<T>('GET', path, opts);
  }
  post<T = Json>(path: string, body?: unknown, opts: RequestOptions = {}) {
    return this.request<T>('POST', path, { ...opts, body });
  }
  patch<T = Json>(path: string, body?: unknown, opts: RequestOptions = {}) {
    return this.request<T>('PATCH', path, { ...opts, body });
  }
  put<T = Json>(path: string, body?: unknown, opts: RequestOptions = {}) {
    return this.request<T>('PUT', path, { ...opts, body });
  }
  delete<T = Json>(path: string, opts?: RequestOptions) {
    return this.request<T>('DELETE', path, opts);
  }
}

export interface TestPlatform {
  platformId: string;
  api: Api;
  credentials: Credentials;
  /** A client for a new token of this platform with only these permissions. */
  withPermissions(...permissions: Permission[]): Promise<Api>;
}

/** A fresh sandbox platform with an all-permission token: each test file gets its own tenant. */
export async function newPlatform(opts: Partial<NewPlatform> = {}): Promise<TestPlatform> {
  const platformId = await createPlatform({ name: opts.name ?? 'Test platform', ...opts }, db());
  const t = await tokens.issue(platformId, 'test', ['VIEW', 'TRANSACT', 'MANAGE'], {}, db());
  const credentials = { clientId: t.clientId, clientSecret: t.clientSecret! };
  return {
    platformId,
    api: new Api(credentials),
    credentials,
    async withPermissions(...permissions) {
      const x = await tokens.issue(platformId, `test ${permissions.join('+')}`, permissions, {}, db());
      return new Api({ clientId: x.clientId, clientSecret: x.clientSecret! });
    },
  };
}

/** Asserts an error response in the specification's error shape. */
export function expectError(res: ApiResponse, status: number, code: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ status, code });
  expect(typeof res.body.message).toBe('string');
}

/** The error body the API answers a domain error with (`{status, code, message, details?}`). */
export function answerOf(err: unknown) {
  if (!(err instanceof DomainError)) throw err;
  return errorBody(err);
}
