import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ERROR_STATUS } from '@/lib/http/errors';
import { EDGE_ERRORS } from '@/scripts/http-edge.mjs';
import { startProductionServer, type ProductionServer } from './support/production-server';
import { rawFollowUp, rawRequest, type RawResponse } from './support/raw-http';

// Against a production server (scripts/server.mjs, as `npm start` runs it), because much of this
// never reaches a route handler: node:http's parser and Next.js's router answer first. Every
// answer under the base path must be the error body `{status, code, message}` as JSON with its
// retry hint: never a 500 text/plain, an empty body, a reset or silence.
const BASE = '/api/2025-10-13';

let server: ProductionServer;
let auth: string;
beforeAll(async () => {
  server = await startProductionServer(inject('embedded'));
  auth = `Basic ${Buffer.from(`${server.clientId}:${server.clientSecret}`).toString('base64')}`;
}, 600_000);
afterAll(async () => {
  await server?.stop();
});

const send = (request: string | Buffer | (string | Buffer)[]) => rawRequest(server.port, request);
const head = (requestLine: string, headers: string[] = []) =>
  `${requestLine}\r\n${['Host: 127.0.0.1', `Authorization: ${auth}`, ...headers].join('\r\n')}\r\n\r\n`;
const post = (path: string, body: Buffer | string, headers: string[] = []) =>
  Buffer.concat([
    Buffer.from(
      head(`POST ${BASE}${path} HTTP/1.1`, [
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        ...headers,
      ]),
    ),
    Buffer.from(body),
  ]);

function expectErrorBody(res: RawResponse, status: number, code?: string, retry = 'false') {
  expect(res.status, res.raw).toBe(status);
  expect(res.headers['content-type'], res.raw).toMatch(/^application\/json/);
  const body = JSON.parse(res.body);
  expect(body, res.raw).toMatchObject({ status, code: expect.any(String), message: expect.any(String) });
  if (code) expect(body.code).toBe(code);
  expect(res.headers['x-should-retry'], res.raw).toBe(retry);
  return body;
}

it('serves the API (the requests below are refused for what they are, not for being sent here)', async () => {
  const config = await send(head(`GET ${BASE}/config HTTP/1.1`));
  expect(config.status, config.raw).toBe(200);
  const created = await send(post('/customers', '{"customerType":"INDIVIDUAL","fullName":"Edge Person"}'));
  expect(created.status, created.raw).toBe(201);
});

it('refuses paths whose escapes are not UTF-8 with 400', async () => {
  for (const path of [
    '/customers/%ff',
    '/customers/%E2%82',
    '/customers/x%ff/y',
    '/customers/%',
    '/no-such-thing/%c0%af',
  ])
    expectErrorBody(await send(head(`GET ${BASE}${path} HTTP/1.1`)), 400, 'INVALID_INPUT');
  expectErrorBody(await send(post('/sandbox/internal-accounts/%ff/fund', '{"amount":1}')), 400, 'INVALID_INPUT');
});

it('refuses query escapes that are not UTF-8 with 400 naming the parameter (not a U+FFFD filter)', async () => {
  const value = expectErrorBody(
    await send(head(`GET ${BASE}/customers?platformCustomerId=a%ffb HTTP/1.1`)),
    400,
    'INVALID_INPUT',
  );
  expect(value.details.errors).toEqual([
    { field: 'platformCustomerId', message: 'is not valid percent-encoded UTF-8' },
  ]);
  const name = expectErrorBody(await send(head(`GET ${BASE}/customers?%ff=1 HTTP/1.1`)), 400, 'INVALID_INPUT');
  expect(name.details.errors).toEqual([{ field: '(query)', message: 'is not valid percent-encoded UTF-8' }]);
  const fine = await send(head(`GET ${BASE}/customers?platformCustomerId=Jos%C3%A9+X HTTP/1.1`));
  expect(fine.status, fine.raw).toBe(200);
});

it('refuses TRACE, WebDAV, unknown methods and CONNECT with 405 and Allow', async () => {
  for (const method of ['TRACE', 'PROPFIND', 'MKCOL', 'LOCK', 'PURGE', 'SEARCH', 'FOO', 'BREW'])
    expect(
      expectErrorBody(await send(head(`${method} ${BASE}/config HTTP/1.1`)), 405, 'METHOD_NOT_ALLOWED').message,
    ).toMatch(/allowed/);
  const connect = await send('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
  expectErrorBody(connect, 405, 'METHOD_NOT_ALLOWED');
  expect(connect.headers.allow).toContain('GET');
  // Methods a path does not take, where Next.js would answer an empty 405.
  expectErrorBody(await send(post('/openapi.json', '{}')), 405, 'METHOD_NOT_ALLOWED');
  expectErrorBody(await send(head(`PUT ${BASE}/config HTTP/1.1`, ['Content-Length: 0'])), 405, 'METHOD_NOT_ALLOWED');
});

it('answers a URL or headers over 16 KiB with 431, without resetting the connection', async () => {
  expectErrorBody(
    await send(head(`GET ${BASE}/customers?x=${'a'.repeat(17 * 1024)} HTTP/1.1`)),
    431,
    'REQUEST_HEADERS_TOO_LARGE',
  );
  expectErrorBody(
    await send(head(`GET ${BASE}/config HTTP/1.1`, [`X-Big: ${'b'.repeat(17 * 1024)}`])),
    431,
    'REQUEST_HEADERS_TOO_LARGE',
  );
  // Far beyond the limit: the client is still sending when the server has answered.
  expectErrorBody(
    await send(head(`GET ${BASE}/config HTTP/1.1`, [`X-Big: ${'c'.repeat(1024 * 1024)}`])),
    431,
    'REQUEST_HEADERS_TOO_LARGE',
  );
  expectErrorBody(
    await send(
      head(
        `GET ${BASE}/config HTTP/1.1`,
        Array.from({ length: 4000 }, (_, i) => `X-H${i}: v`),
      ),
    ),
    431,
    'REQUEST_HEADERS_TOO_LARGE',
  );
});

it('refuses malformed HTTP (broken chunking, conflicting lengths, bad header names) with 400', async () => {
  const chunked = head(`POST ${BASE}/customers HTTP/1.1`, [
    'Content-Type: application/json',
    'Transfer-Encoding: chunked',
  ]);
  expectErrorBody(await send(`${chunked}3\r\n{"a\r\nzz\r\n`), 400, 'INVALID_INPUT');
  expectErrorBody(
    await send(
      head(`POST ${BASE}/customers HTTP/1.1`, ['Content-Length: 5', 'Transfer-Encoding: chunked']) + '0\r\n\r\n',
    ),
    400,
    'INVALID_INPUT',
  );
  expectErrorBody(await send(head(`GET ${BASE}/config HTTP/1.1`, ['Bad Header: x'])), 400, 'INVALID_INPUT');
  expectErrorBody(await send(`GET ${BASE}/config HTTP/1.1\r\n\r\n`), 400, 'INVALID_INPUT'); // no Host
  expectErrorBody(
    await send(head(`GET ${BASE}/config HTTP/1.1`, ['Connection: Upgrade', 'Upgrade: websocket'])),
    400,
    'INVALID_INPUT',
  );
});

it('serves a request with an unknown Expect instead of an empty 417', async () => {
  const res = await send(post('/customers', '{"customerType":"INDIVIDUAL","fullName":"Expecting"}', ['Expect: foo']));
  expect(res.status, res.raw).toBe(201);
});

it('answers promptly: a body shorter than its Content-Length gets 400, headers never finished get 408', async () => {
  const [short, slow] = await Promise.all([
    send(
      Buffer.concat([
        Buffer.from(head(`POST ${BASE}/customers HTTP/1.1`, ['Content-Type: application/json', 'Content-Length: 100'])),
        Buffer.from('{"customerType":"INDIVIDUAL"'),
      ]),
    ),
    send(`GET ${BASE}/config HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `),
  ]);
  expect(expectErrorBody(short, 400, 'INVALID_INPUT').details.errors).toEqual([
    { field: '(body)', message: 'ended before the announced length arrived' },
  ]);
  expectErrorBody(slow, 408, 'REQUEST_TIMEOUT', 'true');
});

it('closes the connection after refusing a body shorter than its Content-Length (the next request is not read as its rest)', async () => {
  const short = Buffer.concat([
    Buffer.from(head(`POST ${BASE}/customers HTTP/1.1`, ['Content-Type: application/json', 'Content-Length: 30'])),
    Buffer.from('{}'),
  ]);
  const { first, after, closed } = await rawFollowUp(server.port, short, head(`GET ${BASE}/config HTTP/1.1`));
  expectErrorBody(first, 400, 'INVALID_INPUT');
  expect(first.headers.connection, first.raw).toBe('close');
  expect(closed).toBe(true);
  expect(after).toBe('');
});

it('refuses compressed bodies with 415 (gzip declared, compressed or not)', async () => {
  const body = '{"customerType":"INDIVIDUAL","fullName":"Zipped"}';
  for (const bytes of [gzipSync(body), Buffer.from(body)]) {
    const res = await send(post('/customers', bytes, ['Content-Encoding: gzip']));
    expectErrorBody(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(res.headers['accept-encoding']).toBe('identity');
  }
});

it('refuses invalid UTF-8 and lone surrogates in a body naming the field', async () => {
  const bad = Buffer.concat([
    Buffer.from('{"customerType":"INDIVIDUAL","fullName":"Jos'),
    Buffer.from([0xff]),
    Buffer.from('"}'),
  ]);
  expect(expectErrorBody(await send(post('/customers', bad)), 400, 'INVALID_INPUT').details.errors).toEqual([
    { field: 'fullName', message: 'contains bytes that are not valid UTF-8' },
  ]);
  const surrogate = expectErrorBody(
    await send(post('/customers', '{"customerType":"INDIVIDUAL","fullName":"Jo\\ud800"}')),
    400,
    'INVALID_INPUT',
  );
  expect(surrogate.details.errors[0].field).toBe('fullName');
});

it('leaves pages outside the base path to Next.js', async () => {
  const page = await send('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  expect(page.status, page.raw).toBe(200);
  expect(page.headers['content-type']).toMatch(/^text\/html/);
});

describe('the production server edge', () => {
  it('answers with the codes and statuses of the one error table (lib/http/errors.ts)', () => {
    for (const [code, status] of Object.entries(EDGE_ERRORS))
      expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], code).toBe(status);
  });
});
