import 'server-only';
import { API_BASE } from '@/lib/core/mode';
import { callAs } from '@/lib/http/internal-caller';
import { walletActor } from '@/lib/wallet-web/service';

// The wallet pages' server side acts toward the API as the platform, in process: it calls the
// API's own route handlers (so every rule, validation, signed-retry check and error of the API
// applies unchanged) as the wallet pages' internal actor, not with an API token, so deleting or
// changing tokens through the API cannot break the pages. Nothing reaches the network.
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

export async function forward(
  platformId: string,
  mod: RouteModule,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  o: ForwardOptions = {},
): Promise<Forwarded> {
  const actor = await walletActor(platformId);
  const url = new URL(`http://wallet.internal${API_BASE}${path}`);
  for (const [k, v] of Object.entries(o.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const headers: Record<string, string> = {};
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  if (o.signature?.stamp) headers['service-wallet-signature'] = o.signature.stamp;
  if (o.signature?.requestId) headers['request-id'] = o.signature.requestId;
  if (o.idempotencyKey) headers['idempotency-key'] = o.idempotencyKey;
  const handler = mod[method];
  if (!handler) throw new Error(`no ${method} handler for ${path}`);
  // As Next.js does: routes without dynamic segments get no params.
  const res = await callAs(actor, () =>
    handler(new Request(url, { method, headers, body: o.body }), {
      params: (o.params ? Promise.resolve(o.params) : undefined) as Promise<Record<string, string>>,
    }),
  );
  return { status: res.status, text: await res.text() };
}
