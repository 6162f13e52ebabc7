import { openReveal, peekReveal, type RevealedCard } from '@/lib/cards/reveal';

// GET /cards/reveal/<token> – the reveal page a POST /cards/{id}/reveal URL points to: PAN, CVV
// and expiry, once, and only while the card is ACTIVE. A tampered, expired or already used link
// shows only that it is not valid; a link to a frozen or closed card, only that.
// Never cached or stored by the browser; the nonce comes from proxy.ts's Content-Security-Policy.
const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(nonce: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Card details</title><style nonce="${escape(nonce)}">
body{font-family:system-ui,sans-serif;margin:0;padding:24px;background:#f1f5f9;color:#0f172a}
.card{max-width:360px;margin:0 auto;padding:24px;border-radius:16px;background:#1e3a8a;color:#fff}
.pan{font-family:ui-monospace,monospace;font-size:22px;letter-spacing:2px;margin:16px 0}
dl{display:flex;gap:32px;margin:0}dt{font-size:12px;opacity:.8}dd{margin:0;font-family:ui-monospace,monospace;font-size:18px}
p{max-width:360px;margin:16px auto}</style></head><body>${body}</body></html>`;
}

const groups = (pan: string) => pan.replace(/(\d{4})(?=\d)/g, '$1 ');

function details(c: RevealedCard): string {
  const exp = `${String(c.expMonth).padStart(2, '0')}/${String(c.expYear).slice(-2)}`;
  return `<main class="card" aria-label="Card details"><div>${escape(c.brand)}</div>
<div class="pan" data-testid="pan">${escape(groups(c.pan))}</div>
<dl><div><dt>Expires</dt><dd data-testid="expiry">${escape(exp)}</dd></div><div><dt>CVV</dt><dd data-testid="cvv">${escape(c.cvv)}</dd></div></dl></main>
<p>This link has now been used and will not show these details again.</p>`;
}

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store, max-age=0',
  'referrer-policy': 'no-referrer',
};

const INVALID =
  '<p role="alert">This card-details link is not valid: it has expired, was already used, or was altered. Request a new reveal.</p>';
const inactive = (state: string) =>
  `<p role="alert">This card is ${state === 'FROZEN' ? 'frozen' : 'closed'}, so its details are not shown. ${
    state === 'FROZEN' ? 'Unfreeze the card and request a new reveal.' : 'A closed card cannot be revealed.'
  }</p>`;

/** The status of each outcome: GET and HEAD answer alike. */
const STATUS = { shown: 200, invalid: 404, inactive: 403 } as const;

export async function GET(req: Request, ctx: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await ctx.params;
  const outcome = await openReveal(token);
  const nonce = req.headers.get('x-nonce') ?? '';
  const body =
    outcome.kind === 'shown' ? details(outcome.card) : outcome.kind === 'inactive' ? inactive(outcome.state) : INVALID;
  return new Response(page(nonce, body), { status: STATUS[outcome.kind], headers: HEADERS });
}

// HEAD /cards/reveal/<token> – the status a GET would answer now, without using the link up (Next.js
// would otherwise answer HEAD by running GET, and a link checker or a preview fetch would consume it).
export async function HEAD(_req: Request, ctx: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await ctx.params;
  return new Response(null, { status: STATUS[await peekReveal(token)], headers: HEADERS });
}
