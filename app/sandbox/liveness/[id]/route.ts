import { completeLivenessOnPage, findLiveness, type LivenessView } from '@/lib/sandbox/liveness';

// GET /sandbox/liveness/<id> – the page a sandbox verificationLink opens (a factor reset's or a
// wallet ownership check's liveness check): what the check is for, where it stands, and a button
// that completes it. POST (the button) completes it and comes back here (303). Sandbox only: in
// production, as for an unknown id, there is nothing at this address (404). The nonce comes from
// proxy.ts's Content-Security-Policy.
type Context = { params: Promise<{ id: string }> };

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(req: Request, status: number, body: string): Response {
  const nonce = escape(req.headers.get('x-nonce') ?? '');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Sandbox liveness check</title><style nonce="${nonce}">
body{font-family:system-ui,sans-serif;margin:0;padding:24px;background:#f1f5f9;color:#0f172a}
main{max-width:480px;margin:0 auto;padding:24px;border-radius:12px;background:#fff}
h1{font-size:20px;margin:0 0 12px}p{line-height:1.5}code{font-size:13px;word-break:break-all}
button{font:inherit;padding:10px 16px;border:0;border-radius:8px;background:#1e40af;color:#fff;cursor:pointer}
</style></head><body><main>${body}</main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store, max-age=0',
      'referrer-policy': 'no-referrer',
    },
  });
}

/** The id in the link (encoded there: `TwoFactorReset%3A...`), however the router hands it over. */
async function idOf(ctx: Context): Promise<string> {
  const raw = (await ctx.params).id;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

const notFound = (req: Request) =>
  page(req, 404, '<h1>No liveness check here</h1><p role="alert">There is no liveness check at this address.</p>');

function details(v: LivenessView): string {
  const form = v.open
    ? `<p>In production the customer would now take a short selfie video with the identity vendor. The sandbox has no
camera step: complete the check here and it reports the outcome its magic values choose.</p>
<form method="post"><button type="submit">Complete the liveness check</button></form>`
    : '<p>This check is no longer waiting for the customer: there is nothing to do here.</p>';
  return `<h1>Sandbox liveness check</h1><p>${escape(v.subject)}.</p>
<p>Check <code>${escape(v.id)}</code>: <strong data-testid="status">${escape(v.status)}</strong></p>${form}`;
}

export async function GET(req: Request, ctx: Context): Promise<Response> {
  const view = await findLiveness(await idOf(ctx));
  return view ? page(req, 200, details(view)) : notFound(req);
}

/** The button: only from a page of this origin (a form on another site cannot complete a check). */
export async function POST(req: Request, ctx: Context): Promise<Response> {
  const id = await idOf(ctx);
  const origin = req.headers.get('origin');
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  let sameOrigin = false;
  try {
    sameOrigin = origin !== null && host !== null && new URL(origin).host === host;
  } catch {
    sameOrigin = false;
  }
  if (!sameOrigin)
    return page(req, 403, '<h1>Refused</h1><p role="alert">A liveness check completes only from its own page.</p>');
  const view = await completeLivenessOnPage(id);
  if (!view) return notFound(req);
  return new Response(null, {
    status: 303,
    headers: { location: `/sandbox/liveness/${encodeURIComponent(id)}`, 'cache-control': 'no-store' },
  });
}
