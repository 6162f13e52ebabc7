import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setLogDestination } from '@/lib/core/log';
import { basic, newPlatform, type TestPlatform } from './support/api';
import { activeCard, cardholder } from '@/lib/cards/testing';
import { individual } from '@/lib/customers/testing';

// Issue 28 point 1: every answer carries X-Request-Id, every request writes one JSON line under
// it, and a run's log holds no secret, card number, query string or body.
const lines: Record<string, unknown>[] = [];
let raw = '';
const capture = new Writable({
  write(chunk, _enc, done) {
    raw += chunk.toString();
    for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line));
    done();
  },
});

let p: TestPlatform;
const previousLevel = process.env.CORRIDOR_LOG_LEVEL;
beforeAll(async () => {
  process.env.CORRIDOR_LOG_LEVEL = 'trace';
  setLogDestination(capture);
  p = await newPlatform();
});
afterAll(() => {
  process.env.CORRIDOR_LOG_LEVEL = previousLevel;
  setLogDestination(undefined);
});

const lineOf = (id: string | null) => {
  expect(id).toBeTruthy();
  const found = lines.filter((l) => l.reqId === id && l.msg === 'request');
  expect(found).toHaveLength(1);
  return found[0];
};

it('answers with a new X-Request-Id and logs the route pattern, status, time and actor', async () => {
  const res = await p.api.post('/customers', individual('Grace Logline', { platformCustomerId: 'log-1' }));
  expect(res.status, res.text).toBe(201);
  const id = res.headers.get('x-request-id');
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  const line = lineOf(id);
  expect(line).toMatchObject({ method: 'POST', route: '/customers', status: 201, actor: 'platform', level: 'info' });
  expect(line.platformId).toBe(p.platformId);
  expect(typeof line.ms).toBe('number');
  const get = await p.api.get(`/customers/${res.body.id}`);
  expect(get.status).toBe(200);
  // The pattern, not the concrete path.
  expect(lineOf(get.headers.get('x-request-id')).route).toBe('/customers/{customerId}');
});

it('keeps a sensible incoming id and replaces one that is not', async () => {
  const kept = await p.api.get('/customers', { headers: { 'x-request-id': 'support-ticket-4711' } });
  expect(kept.status).toBe(200);
  expect(kept.headers.get('x-request-id')).toBe('support-ticket-4711');
  lineOf('support-ticket-4711');
  const bad = 'x y\u0007<script>';
  const replaced = await p.api.get('/customers', { headers: { 'x-request-id': bad } });
  expect(replaced.status).toBe(200);
  expect(replaced.headers.get('x-request-id')).not.toBe(bad);
  lineOf(replaced.headers.get('x-request-id'));
  expect(raw).not.toContain('<script>');
});

it('puts the id on error answers too: 400, 401, 404 and 405', async () => {
  const invalid = await p.api.post('/customers', { customerType: 'NOPE' });
  expect(invalid.status).toBe(400);
  expect(lineOf(invalid.headers.get('x-request-id')).status).toBe(400);
  const unauthorized = await p.api.get('/customers', { authorization: 'Basic bm90OnJpZ2h0' });
  expect(unauthorized.status).toBe(401);
  expect(lineOf(unauthorized.headers.get('x-request-id')).status).toBe(401);
  const missing = await p.api.get('/no-such-thing');
  expect(missing.status).toBe(404);
  expect(lineOf(missing.headers.get('x-request-id')).route).toBe('(no such operation)');
  const method = await p.api.request('PUT', '/customers');
  expect(method.status).toBe(405);
  expect(lineOf(method.headers.get('x-request-id'))).toMatchObject({ route: '/customers', status: 405 });
});

it('writes no secret, card number, query string or body into the log', async () => {
  // A token's secret (created, then used), a card's number (revealed), a query string, bodies.
  const token = await p.api.post('/tokens', { name: 'Log probe', permissions: ['VIEW'] });
  expect(token.status, token.text).toBe(201);
  const secret: string = token.body.clientSecret;
  expect(secret.length).toBeGreaterThan(10);
  const used = await p.api.get('/customers', {
    authorization: basic({ clientId: token.body.clientId, clientSecret: secret }),
    query: { limit: 1, platformCustomerId: 'query-probe-7a1' },
  });
  expect(used.status).toBe(200);
  const holder = await cardholder(p, 'Lena Logsafe');
  const card = await activeCard(p, holder);
  const reveal = await p.api.post(`/cards/${card.id}/reveal`);
  expect(reveal.status).toBe(200);
  const revealToken = decodeURIComponent(new URL(reveal.body.panEmbedUrl).pathname.split('/').pop()!);
  const body = await p.api.post(
    '/customers',
    individual('Body Probe', { platformCustomerId: 'body-probe-9c2', email: 'body.probe@example.com' }),
  );
  expect(body.status, body.text).toBe(201);

  expect(lines.length).toBeGreaterThan(5);
  for (const needle of [
    secret,
    basic({ clientId: token.body.clientId, clientSecret: secret }).slice(6),
    'query-probe-7a1',
    'body-probe-9c2',
    'body.probe@example.com',
    'Body Probe',
    revealToken,
  ])
    expect(raw, needle).not.toContain(needle);
  // No 13-19 digit run that could be a card number.
  expect(raw).not.toMatch(/\d{13,19}/);
});
