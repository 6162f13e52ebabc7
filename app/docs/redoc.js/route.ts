import { readFile } from 'node:fs/promises';
import path from 'node:path';

// GET /docs/redoc.js – Redoc's standalone bundle from the installed redoc package (no CDN). Its
// menu footer shows a logo fetched from Redocly's CDN: that one URL is swapped for an empty image,
// so the page makes no request off this server (and works offline) under its img-src 'self'.
const CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";
let bundle: Promise<string> | undefined;

export async function GET() {
  bundle ??= readFile(path.join(process.cwd(), 'node_modules', 'redoc', 'bundles', 'redoc.standalone.js'), 'utf8').then(
    (text) => text.split(CDN_LOGO).join(EMPTY_IMAGE),
  );
  return new Response(await bundle, {
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600' },
  });
}
