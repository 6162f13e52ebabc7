import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientAddress, PEER_ADDRESS_HEADER } from '@/lib/http/client-address';
import { Api, basic, expectError, newPlatform, type ApiResponse, type TestPlatform } from '@/tests/support/api';
import { startPeer, type Peer } from '@/tests/support/peer';
import { sourceOf, throttleLimits } from './throttle';

// Failed authentication is throttled per source address and per client id (defaults: 30 failures
// per address, 10 per client id, in a 300 s window), with 429 RATE_LIMITED and Retry-After, and
// without ever refusing valid credentials from an address that did not fail.
const { perAddress, perClient, windowMs } = throttleLimits();

function expectThrottled(res: ApiResponse) {
  expectError(res, 429, 'RATE_LIMITED');
  const wait = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(wait)).toBe(true);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(windowMs / 1000);
  expect(res.body.details).toEqual({ retryAfterSeconds: wait });
}

let seq = 0;
/** A client machine at its own address. */
const from = (creds?: { clientId: string; clientSecret: string }) =>
  new Api(creds, `203.0.113.${(++seq % 200) + 1 + Math.floor(Math.random() * 50)}`);

describe('throttling failed authentication', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await newPlatform();
  });

  async function token() {
    const made = await p.api.post('/tokens', { name: 'target', permissions: ['VIEW'] });
    expect(made.status, made.text).toBe(201);
    return { id: made.body.id as string, clientId: made.body.clientId as string, secret: made.body.clientSecret };
  }

  it('refuses an address after too many wrong secrets for one client id, and never evaluates it further', async () => {
    const t = await token();
    const attacker = new Api({ clientId: t.clientId, clientSecret: 'wrong-secret' }, '2001:db8:aaaa:1::7');
    for (let i = 0; i < perClient; i++) expectError(await attacker.get('/config'), 401, 'UNAUTHORIZED');
    expectThrottled(await attacker.get('/config'));
    // The right secret from the same address is not even tried: a refusal answers no guess.
    expectThrottled(await new Api({ clientId: t.clientId, clientSecret: t.secret }, attacker.address).get('/config'));
    // The same /64 is the same source.
    expectThrottled(
      await new Api({ clientId: t.clientId, clientSecret: t.secret }, '2001:db8:aaaa:1::8').get('/config'),
    );
    // The owner, elsewhere, is not slowed: its correct secret works, again and again.
    const owner = new Api({ clientId: t.clientId, clientSecret: t.secret }, '2001:db8:bbbb:1::1');
    for (let i = 0; i < 5; i++) expect((await owner.get('/config')).status).toBe(200);
    // Other client ids from the attacker's address still work (its address count is below its limit).
    const other = await token();
    expect(
      (await new Api({ clientId: other.clientId, clientSecret: other.secret }, attacker.address).get('/config')).status,
    ).toBe(200);
  });

  it('counts a client id once whichever of its names is used, and cuts off each new attacking address after one failure', async () => {
    const t = await token();
    const a = new Api(undefined, '2001:db8:cccc:1::1');
    for (let i = 0; i < perClient; i++) {
      const username = i % 2 ? t.id : t.clientId;
      expectError(
        await a.get('/config', { authorization: basic({ clientId: username, clientSecret: 'nope' }) }),
        401,
        'UNAUTHORIZED',
      );
    }
    for (const username of [t.id, t.clientId])
      expectThrottled(await a.get('/config', { authorization: basic({ clientId: username, clientSecret: t.secret }) }));
    // The client id is under attack: a new address gets one wrong try, then it is refused too.
    const b = new Api({ clientId: t.clientId, clientSecret: 'nope' }, '2001:db8:cccc:2::1');
    expectError(await b.get('/config'), 401, 'UNAUTHORIZED');
    expectThrottled(await b.get('/config'));
    // An address that never failed keeps working with the right secret.
    expect(
      (await new Api({ clientId: t.id, clientSecret: t.secret }, '2001:db8:cccc:3::1').get('/config')).status,
    ).toBe(200);
  });

  it('refuses an address after too many failures across client ids, valid credentials included; other addresses are unaffected', async () => {
    const address = '2001:db8:dddd:1::1';
    const scanner = new Api(undefined, address);
    for (let i = 0; i < perAddress; i++) {
      const res =
        i % 3 === 0
          ? await scanner.get('/config', { authorization: 'Basic !!!' }) // malformed counts too
          : await scanner.get('/config', { authorization: basic({ clientId: `nobody-${i}`, clientSecret: 'x' }) });
      expectError(res, 401, 'UNAUTHORIZED');
    }
    expectThrottled(await scanner.get('/config', { authorization: basic({ clientId: 'nobody', clientSecret: 'x' }) }));
    const valid = p.credentials;
    expectThrottled(await new Api(valid, address).get('/config'));
    expect((await new Api(valid, '2001:db8:dddd:2::1').get('/config')).status).toBe(200);
  });

  it('does not count requests without credentials, nor successes', async () => {
    const a = from(p.credentials);
    for (let i = 0; i < perAddress + 5; i++)
      expectError(await a.get('/config', { authorization: null }), 401, 'UNAUTHORIZED');
    for (let i = 0; i < perClient + 5; i++) expect((await a.get('/config')).status).toBe(200);
  });
});

describe('source addresses', () => {
  it('takes the peer address, and X-Forwarded-For only as far as trusted proxies say', () => {
    const h = (xff?: string) =>
      new Headers({ [PEER_ADDRESS_HEADER]: '10.0.0.5', ...(xff ? { 'x-forwarded-for': xff } : {}) });
    expect(clientAddress(h('1.2.3.4'), 0)).toBe('10.0.0.5'); // not trusted: a client can write anything there
    expect(clientAddress(h('6.6.6.6, 1.2.3.4'), 1)).toBe('1.2.3.4'); // the entry our proxy appended
    expect(clientAddress(h('6.6.6.6, 1.2.3.4, 172.16.0.9'), 2)).toBe('1.2.3.4');
    expect(clientAddress(h('1.2.3.4'), 2)).toBe('1.2.3.4');
    expect(clientAddress(h(), 1)).toBe('10.0.0.5');
    expect(clientAddress(new Headers(), 0)).toBe('unknown');
  });

  it('counts IPv4-mapped addresses as IPv4 and IPv6 per /64', () => {
    expect(sourceOf('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(sourceOf('192.0.2.1')).toBe('192.0.2.1');
    expect(sourceOf('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(sourceOf('2001:0db8:0001:0002::9')).toBe('2001:db8:1:2::/64');
    expect(sourceOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(sourceOf('::1')).toBe('0:0:0:0::/64');
  });
});

describe.skipIf(inject('embedded'))('throttling across server processes (PostgreSQL)', () => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await startPeer();
  }, 120_000);
  afterAll(() => peer?.stop());

  it('a refusal made by one process holds in the other at once', async () => {
    const p = await newPlatform();
    const made = await p.api.post('/tokens', { name: 'shared', permissions: ['VIEW'] });
    const wrong = { clientId: made.body.clientId, clientSecret: 'wrong' };
    const right = { clientId: made.body.clientId, clientSecret: made.body.clientSecret };
    // The peer has authenticated before, so it holds the refusals in force and learns new ones
    // as they are made.
    expect((await peer.request('GET', '/config', right, undefined)).status).toBe(200);
    // The peer server sees every request from 127.0.0.1, the address this process uses here too.
    const local = new Api(wrong, '127.0.0.1');
    for (let i = 0; i < perClient; i++) expectError(await local.get('/config'), 401, 'UNAUTHORIZED');
    const there = await peer.request('GET', '/config', right, undefined);
    expect(there.status, there.text).toBe(429);
    expect(there.body).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(Number(there.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
