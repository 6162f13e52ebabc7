import { NextResponse, type NextRequest } from 'next/server';
import { refuseServerAction } from './lib/http/server-action-guard';

// Security headers of every page (the API under /api is left alone: it answers JSON to
// programs and its latency matters). A strict Content-Security-Policy with a fresh nonce per
// request — Next.js reads it from the request's CSP header and puts it on its own scripts — so
// no inline script runs unless this server wrote it; no framing; fetches to this origin only.
function policy(nonce: string, path: string, https: boolean): string {
  const docs = path === '/docs' || path.startsWith('/docs/');
  // A customer's document file, previewed inside the console's own pages (a PDF in a frame).
  const file = path.startsWith('/console/documents/');
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    // The API reference renderer (Redoc) injects its styles at run time; scripts stay nonce-only.
    docs ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: blob:",
    docs ? "font-src 'self' data:" : "font-src 'self'",
    "connect-src 'self'",
    // Redoc runs its search index in a worker it creates from a blob.
    docs ? "worker-src 'self' blob:" : "worker-src 'self'",
    // Chromium shows a PDF through its viewer plugin, which object-src governs.
    file ? "object-src 'self'" : "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    file ? "frame-ancestors 'self'" : "frame-ancestors 'none'",
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

// Pages get the headers below; the other paths reach the proxy only as possible server actions.
const PAGE = /^\/(?!api\/|_next\/static|_next\/image|favicon\.ico)/;

export async function proxy(request: NextRequest) {
  // Before Next.js dispatches a server action (lib/http/server-action-guard.ts).
  const refused = await refuseServerAction(request, request.nextUrl.pathname);
  if (refused) return refused;
  if (!PAGE.test(request.nextUrl.pathname)) return NextResponse.next();
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const csp = policy(nonce, request.nextUrl.pathname, request.nextUrl.protocol === 'https:');
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', csp);
  response.headers.set(
    'x-frame-options',
    request.nextUrl.pathname.startsWith('/console/documents/') ? 'SAMEORIGIN' : 'DENY',
  );
  response.headers.set('x-content-type-options', 'nosniff');
  response.headers.set('referrer-policy', 'same-origin');
  response.headers.set('cross-origin-opener-policy', 'same-origin');
  response.headers.set('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  return response;
}

export const config = {
  matcher: [
    { source: '/((?!api/|_next/static|_next/image|favicon.ico).*)' },
    // A server action runs on any path Next.js renders a page for, a path without a page
    // included (it renders the not-found page): every request that could be one comes here.
    { source: '/:path*', has: [{ type: 'header', key: 'next-action' }] },
    {
      source: '/((?!api/2025-10-13/).*)',
      has: [{ type: 'header', key: 'content-type', value: 'multipart/form-data.*' }],
    },
  ],
};
