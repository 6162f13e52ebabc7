import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startProductionServer, type ProductionServer } from '@/tests/support/production-server';
import type { RawResponse } from '@/tests/support/raw-http';
import { actionId, multipart, postAction, signInOverHttp, type ActionPost } from './console-http';

// Console actions over real HTTP against a production server (scripts/server.mjs), because what
// is tested here happens before any of our code runs in Next.js: the origin check, the body's
// size and decoding. An action request from another origin, `Origin: null` or no Origin is
// refused with 403; a malformed or oversized body with a 4xx; never a 500, and the action never
// runs — seen in the state it would have changed (the webhook endpoint, read through the API).
const ADMIN = { email: 'guard-admin@console.example', password: 'guard-admin-password-1' };
let server: ProductionServer;
let cookie: string;
let n = 0;

beforeAll(async () => {
  server = await startProductionServer(inject('embedded'), {
    CORRIDOR_STAFF_EMAIL: ADMIN.email,
    CORRIDOR_STAFF_PASSWORD: ADMIN.password,
    CORRIDOR_WEBHOOK_ALLOW_PRIVATE: '1',
    CORRIDOR_TRUSTED_PROXIES: '1',
  });
  const signedIn = await signInOverHttp(server.port, ADMIN.email, ADMIN.password, '192.0.2.1');
  expect(signedIn.cookie, JSON.stringify(signedIn)).toBeTruthy();
  cookie = signedIn.cookie!;
}, 600_000);
afterAll(async () => {
  await server?.stop();
});

async function webhookEndpoint(): Promise<string | undefined> {
  const auth = Buffer.from(`${server.clientId}:${server.clientSecret}`).toString('base64');
  const res = await fetch(`${server.base}/api/2025-10-13/config`, { headers: { authorization: `Basic ${auth}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { webhookEndpoint?: string }).webhookEndpoint;
}

/** The settings page's call setWebhookEndpointAction(url), signed in as the admin, from this site. */
const setEndpoint = (url: string, over: Partial<ActionPost> = {}) =>
  postAction({
    port: server.port,
    action: actionId('setWebhookEndpointAction'),
    body: JSON.stringify([url]),
    origin: server.base,
    cookie,
    ...over,
  });

function expectRefusal(res: RawResponse, status: number, code: string) {
  expect(res.status, res.raw).toBe(status);
  expect(res.headers['content-type'], res.raw).toMatch(/^application\/json/);
  expect(JSON.parse(res.body), res.raw).toMatchObject({ status, code, message: expect.any(String) });
}

/** Sends `over` in place of a call that would set a new endpoint, and checks it was refused and nothing changed. */
async function refused(over: Partial<ActionPost>, status: number, code: string) {
  const before = await webhookEndpoint();
  const res = await setEndpoint(`http://hooks.example/refused-${++n}`, over);
  expectRefusal(res, status, code);
  expect(await webhookEndpoint()).toBe(before);
}

it('an action from a page of this site runs (so the refusals below are for what they test)', async () => {
  const res = await setEndpoint('http://hooks.example/accepted');
  expect(res.status, res.raw).toBe(200);
  expect(res.body).toContain('"ok":true');
  expect(await webhookEndpoint()).toBe('http://hooks.example/accepted');
});

describe('an action request not sent by a page of this site: 403, nothing runs', () => {
  it('a foreign Origin, Origin: null, no Origin, an Origin that is not a URL', async () => {
    for (const origin of ['https://evil.example', `http://127.0.0.1:${server.port + 1}`, 'null', null, 'garbage'])
      await refused({ origin }, 403, 'FORBIDDEN');
  });

  it('posted to a path without a page, where Next.js still runs it (the not-found page)', async () => {
    for (const path of ['/api/nothing-here', '/favicon.ico', '/api/2025-10-13', '/no-such-page'])
      await refused({ path, origin: null }, 403, 'FORBIDDEN');
  });

  it('a form posted without JavaScript (the action named in a field, no Next-Action header)', async () => {
    const form = multipart([[`$ACTION_ID_${actionId('setWebhookEndpointAction')}`, '']]);
    for (const origin of [null, 'https://evil.example'])
      await refused({ action: undefined, body: form.body, contentType: form.contentType, origin }, 403, 'FORBIDDEN');
  });
});

describe('a malformed or oversized action body: 4xx, nothing runs', () => {
  it('arguments that are not a JSON list, or refer to parts the body does not hold', async () => {
    for (const body of ['{{{not json', '"x"', '{}', '["$Q9"]', '["$@1"]', '["$1"]', '["$nX"]', '['.repeat(5000)])
      await refused({ body }, 400, 'INVALID_INPUT');
  });

  it('a multipart body cut short, or without its arguments', async () => {
    const cut = multipart([['0', '["x"]']]);
    await refused({ body: cut.body.slice(0, -10), contentType: cut.contentType }, 400, 'INVALID_INPUT');
    const noArgs = multipart([['_1_x', 'y']]);
    await refused({ body: noArgs.body, contentType: noArgs.contentType }, 400, 'INVALID_INPUT');
    await refused(
      { action: undefined, body: cut.body.slice(0, -10), contentType: cut.contentType },
      400,
      'INVALID_INPUT',
    );
  });

  it('a form posted without JavaScript whose action reference is malformed', async () => {
    const id = actionId('setWebhookEndpointAction');
    for (const meta of ['{bad', `{"id":"${id}","bound":"$@1"}`, `{"id":"${id}","bound":"$Q1"}`, '[]']) {
      const form = multipart([
        ['$ACTION_REF_1', ''],
        ['$ACTION_1:0', meta],
      ]);
      await refused({ action: undefined, body: form.body, contentType: form.contentType }, 400, 'INVALID_INPUT');
    }
  });

  it('20 MB, a body of unknown length (chunked), a compressed body', async () => {
    await refused({ body: Buffer.alloc(20 * 1024 * 1024, 'x') }, 400, 'INVALID_INPUT');
    await refused({ body: Buffer.alloc(2 * 1024 * 1024, 'x'), chunked: true }, 400, 'INVALID_INPUT');
    await refused({ chunked: true }, 400, 'INVALID_INPUT');
    await refused({ headers: ['Content-Encoding: gzip'] }, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

it('the sign-in action called with something else than its form answers as for a wrong password', async () => {
  for (const body of ['[{},5]', '[]', '[null,{"email":"x"}]']) {
    const res = await postAction({ port: server.port, action: actionId('signInAction'), body, origin: server.base });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toContain('Wrong email or password.');
  }
});

describe('staff sign-in over HTTP', () => {
  it('24 concurrent wrong passwords from one address: five checked, the rest told when to try again', async () => {
    const from = '203.0.113.9';
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => signInOverHttp(server.port, ADMIN.email, `wrong-password-${i}`, from)),
    );
    expect(results.every((r) => r.status === 200 && r.cookie === null)).toBe(true);
    const messages = results.map((r) => r.message ?? '');
    expect(messages.filter((m) => m === 'Wrong email or password.')).toHaveLength(5);
    expect(messages.filter((m) => /^Too many sign-in attempts\. Try again in \d+ s\.$/.test(m))).toHaveLength(19);
    // The owner, from another address, signs in meanwhile.
    const owner = await signInOverHttp(server.port, ADMIN.email, ADMIN.password, '203.0.113.10');
    expect(owner.cookie, JSON.stringify(owner)).toBeTruthy();
  });
});
