import 'server-only';
import { API_BASE } from '@/lib/core/mode';
import { walletCredentials } from '@/lib/wallet-web/service';

// The wallet pages' server side acts toward the API as the platform, in process: it calls the
// API's own route handlers (so every rule, validation, signed-retry check and error of the API
// applies unchanged) with the wallet pages' platform credentials. Nothing reaches the network.
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
export type RouteModule = Partial<Record<'GET' | 'POST' | 'PATCH' | 'DELETE', Handler>>;

export interface Forwarded {
  status: number;
  text: string;
}

export interface ForwardOptions {
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  /** JSON text, forwarded as is (a signed retry must repeat its first call's body). */
  body?: string;
  /** The signed-retry headers the browser sent (the stamp and the request id), nothing else. */
  signature?: { stamp?: string | null; requestId?: string | null };
  idempotencyKey?: string;
}

async function call(
  platformId: string,
  mod: RouteModule,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  o: ForwardOptions,
  recheck: boolean,
): Promise<Response> {
  const creds = await walletCredentials(platformId, recheck);
  const url = new URL(`http://wallet.internal${API_BASE}${path}`);
  for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const headers: Record<string, string> = {
    authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`,
  };
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  if (o.signature?.stamp) headers['service-wallet-signature'] = o.signature.stamp;
  if (o.signature?.requestId) headers['request-id'] = o.signature.requestId;
  if (o.idempotencyKey) headers['idempotency-key'] = o.idempotencyKey;
  const handler = mod[method];
  if (!handler) throw new Error(`no ${method} handler for ${path}`);
  // As Next.js does: routes without dynamic segments get no params.
  return handler(new Request(url, { method, headers, body: o.body }), {
    params: (o.params ? Promise.resolve(o.params) : undefined) as Promise<Record<string, string>>,
  });
}

export async function forward(
  platformId: string,
  mod: RouteModule,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  o: ForwardOptions = {},
): Promise<Forwarded> {
  let res = await call(platformId, mod, method, path, o, false);
  let text = await res.text();
  // The wallet pages' token was deleted (by an admin) since this process cached it: issue it again.
  if (res.status === 401 && text.includes('Invalid API client id or secret')) {
    res = await call(platformId, mod, method, path, o, true);
    text = await res.text();
  }
  return { status: res.status, text };
}
