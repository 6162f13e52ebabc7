import { headers } from 'next/headers';
import { API_BASE } from '@/lib/core/mode';

// GET /docs – the API reference: Redoc (bundled from the redoc package, served by this server, so
// it works offline) rendering the OpenAPI document this server describes itself with. A plain
// page: its two scripts carry this request's CSP nonce (proxy.ts).
const escape = (s: string) => s.replace(/[^A-Za-z0-9+/=]/g, '');

export async function GET() {
  const nonce = escape((await headers()).get('x-nonce') ?? '');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Corridor</title>
<link rel="icon" href="/icon.svg">
</head>
<body style="margin:0">
<header role="banner" style="padding:8px 16px;border-bottom:1px solid #e2e8f0;font:14px system-ui,sans-serif">
<a href="/" style="color:#1e3a8a">Corridor</a> · API reference · <a href="${API_BASE}/openapi.json" style="color:#1e3a8a">OpenAPI document</a>
</header>
<main id="redoc" data-spec-url="${API_BASE}/openapi.json"><p style="padding:16px;font:14px system-ui,sans-serif">Loading the API reference…</p></main>
<script nonce="${nonce}" src="/docs/redoc.js" defer></script>
<script nonce="${nonce}" src="/docs/init.js" defer></script>
</body>
</html>`;
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}
