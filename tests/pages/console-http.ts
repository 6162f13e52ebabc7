import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { rawRequest, type RawResponse } from '@/tests/support/raw-http';

// Console server actions sent over real HTTP the way a browser's page sends them: a POST to a
// console page with the action's id in `Next-Action` and its arguments as React encodes them
// (a JSON list as text/plain, or a multipart form whose field "0" holds the list and refers to
// FormData by "$K<n>", its fields prefixed "_<n>_").

/** The id Next.js gave the exported server action `name` in this build. */
export function actionId(name: string): string {
  const file = path.resolve(__dirname, '..', '..', '.next', 'server', 'server-reference-manifest.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { node: Record<string, { exportedName?: string }> };
  const found = Object.entries(manifest.node).find(([, v]) => v.exportedName === name);
  if (!found) throw new Error(`no server action ${name} in the build`);
  return found[0];
}

/** A multipart body; fields stay in the order given (React reads field "0" last). */
export function multipart(fields: [string, string][]): { body: string; contentType: string } {
  const boundary = '----corridor-test-boundary';
  const parts = fields.map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return { body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The sign-in form's call: signInAction(previousState, FormData{email, password}). */
export const signInForm = (email: string, password: string) =>
  multipart([
    ['_1_email', email],
    ['_1_password', password],
    ['0', '[{},"$K1"]'],
  ]);

export interface ActionPost {
  port: number;
  path?: string;
  /** The Next-Action header; none for a form posted without JavaScript. */
  action?: string;
  body: string | Buffer;
  contentType?: string;
  /** The Origin header; null sends none. */
  origin: string | null;
  cookie?: string;
  headers?: string[];
  /** Sends the body chunked, without Content-Length. */
  chunked?: boolean;
}

export function postAction(r: ActionPost): Promise<RawResponse> {
  const body = Buffer.isBuffer(r.body) ? r.body : Buffer.from(r.body);
  const head = [
    `POST ${r.path ?? '/console/settings'} HTTP/1.1`,
    `Host: 127.0.0.1:${r.port}`,
    `Content-Type: ${r.contentType ?? 'text/plain;charset=UTF-8'}`,
    r.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${body.length}`,
    'Accept: text/x-component',
    'Connection: close',
    ...(r.action ? [`Next-Action: ${r.action}`] : []),
    ...(r.origin !== null ? [`Origin: ${r.origin}`] : []),
    ...(r.cookie ? [`Cookie: ${r.cookie}`] : []),
    ...(r.headers ?? []),
  ];
  const payload = r.chunked
    ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])
    : body;
  return rawRequest(r.port, [`${head.join('\r\n')}\r\n\r\n`, payload]);
}

/**
 * Sends the sign-in form from the client address `from` (the server trusts one proxy, so the
 * last X-Forwarded-For entry is the client): the session cookie when signed in, else the
 * message the form shows.
 */
export function signInOverHttp(
  port: number,
  email: string,
  password: string,
  from: string,
): Promise<{ status: number; cookie: string | null; message: string | null }> {
  const form = signInForm(email, password);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/console/sign-in',
        headers: {
          'content-type': form.contentType,
          'content-length': Buffer.byteLength(form.body),
          'next-action': actionId('signInAction'),
          origin: `http://127.0.0.1:${port}`,
          'x-forwarded-for': from,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          const session = (res.headers['set-cookie'] ?? []).find((c) => c.startsWith('corridor_staff='));
          resolve({
            status: res.statusCode ?? 0,
            cookie: session ? session.split(';')[0] : null,
            message: /"error":"([^"]*)"/.exec(text)?.[1] ?? null,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(form.body);
  });
}
