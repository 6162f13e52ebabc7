import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { transaction } from '@/lib/core/db';
import { eventsOf } from '@/lib/events/outbox';
import { setClockOffset } from '@/lib/platform/repository';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import * as repo from './repository';

// The webhook endpoints here (hooks.example.com) do not resolve; PATCH /config checks that an
// endpoint is public only where private targets are not allowed (lib/webhooks/endpoint.test.ts).
beforeAll(() => {
  process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1';
});
afterAll(() => {
  delete process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE;
});

const address = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
const tag = () => randomBytes(4).toString('hex');

/** A customer of `p` with a fresh UMA address (addresses are unique across platforms). */
async function customer(p: TestPlatform, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const uma = `$${name}.${tag()}@sandbox.uma.money`;
  const res = await p.api.post('/customers', {
    customerType: 'INDIVIDUAL',
    fullName: `${name} Test`,
    birthDate: '1990-01-15',
    nationality: 'US',
    address,
    umaAddress: uma,
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.umaAddress;
}

async function configured(): Promise<TestPlatform> {
  const p = await newPlatform();
  expect((await p.api.patch('/config', { webhookEndpoint: `https://hooks.example.com/${tag()}` })).status).toBe(200);
  return p;
}

let a: TestPlatform; // creates invitations
let b: TestPlatform; // its customers claim them
let inviter: string;
let invitee: string;
beforeAll(async () => {
  a = await configured();
  b = await newPlatform();
  inviter = await customer(a, 'inviter');
  invitee = await customer(b, 'invitee');
});

const invite = (body: Record<string, unknown> = {}, p = a) =>
  p.api.post('/invitations', { inviterUma: inviter, ...body });
const claim = (code: string, uma = invitee, p = b) =>
  p.api.post(`/invitations/${encodeURIComponent(code)}/claim`, { inviteeUma: uma });
const cancel = (code: string, p = a) => p.api.post(`/invitations/${encodeURIComponent(code)}/cancel`);
const claimedEvents = async (code: string) =>
  (await eventsOf(a.platformId, 'INVITATION.CLAIMED')).filter((e) => e.body.data.code === code);

it('creates an invitation with an unguessable code and a link on the platform UMA domain', async () => {
  const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
  const res = await invite({ firstName: 'Alice', amountToSend: 12550, expiresAt, inviterUma: inviter.toUpperCase() });
  expect(res.status, res.text).toBe(201);
  const inv = res.body;
  expect(inv.code).toMatch(/^[A-Za-z0-9_-]{16}$/);
  expect(inv).toEqual({
    code: inv.code,
    createdAt: inv.createdAt,
    url: `https://sandbox.uma.money/i/${inv.code}`,
    expiresAt,
    inviterUma: inviter,
    status: 'PENDING',
    firstName: 'Alice',
    amountToSend: {
      amount: 12550,
      currency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
    },
  });
  const codes = new Set([inv.code]);
  for (let i = 0; i < 5; i++) codes.add((await invite()).body.code);
  expect(codes.size).toBe(6);

  // The amount is in the inviter's currency.
  const mxnInviter = await customer(a, 'peso', { currencies: ['MXN'] });
  const mxn = await invite({ inviterUma: mxnInviter, amountToSend: 50000 });
  expect(mxn.body.amountToSend).toEqual({
    amount: 50000,
    currency: { code: 'MXN', name: 'Mexican Peso', symbol: 'MX$', decimals: 2 },
  });
  const bare = await invite();
  expect(bare.body).not.toHaveProperty('amountToSend');
  expect(bare.body).not.toHaveProperty('expiresAt');
});

it('answers INVITATIONS_NOT_CONFIGURED until the platform has a webhook endpoint', async () => {
  const c = await newPlatform();
  const someone = await customer(c, 'early');
  const res = await c.api.post('/invitations', { inviterUma: someone });
  expectError(res, 400, 'INVITATIONS_NOT_CONFIGURED');
  expect(res.body.details.missing).toEqual(['webhookEndpoint']);
  expect((await c.api.patch('/config', { webhookEndpoint: 'https://hooks.example.com/c' })).status).toBe(200);
  expect((await c.api.post('/invitations', { inviterUma: someone })).status).toBe(201);
  expect((await c.api.patch('/config', { webhookEndpoint: '' })).status).toBe(200);
  expectError(await c.api.post('/invitations', { inviterUma: someone }), 400, 'INVITATIONS_NOT_CONFIGURED');
});

it('refuses an inviter that is not an UMA address of a customer of this platform, and bad fields', async () => {
  expectError(await invite({ inviterUma: 'alice@example.com' }), 400, 'INVALID_UMA_ADDRESS');
  expectError(await invite({ inviterUma: '$bad name@sandbox.uma.money' }), 400, 'INVALID_UMA_ADDRESS');
  const foreign = await invite({ inviterUma: invitee }); // b's customer
  expectError(foreign, 400, 'INVALID_UMA_ADDRESS');
  expect(foreign.body.details.errors[0].field).toBe('inviterUma');
  expectError(await invite({ inviterUma: `$nobody.${tag()}@sandbox.uma.money` }), 400, 'INVALID_UMA_ADDRESS');
  const past = await invite({ expiresAt: new Date(Date.now() - 60_000).toISOString() });
  expectError(past, 400, 'INVALID_INPUT');
  expect(past.body.details.errors[0].field).toBe('expiresAt');
  expectError(await invite({ amountToSend: 0 }), 400, 'INVALID_INPUT');
  expectError(await invite({ expiresAt: 'tomorrow' }), 400, 'INVALID_INPUT');
  expectError(await a.api.post('/invitations', {}), 400, 'INVALID_INPUT');
});

it('is readable by code from any platform; an unknown code is INVITATION_NOT_FOUND', async () => {
  const inv = (await invite({ firstName: 'Bob' })).body;
  for (const p of [a, b]) {
    const res = await p.api.get(`/invitations/${inv.code}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(inv);
  }
  expectError(await a.api.get('/invitations/nope'), 404, 'INVITATION_NOT_FOUND');
});

it('claims: PENDING -> CLAIMED, records the invitee and tells the creating platform in the same transaction', async () => {
  const inv = (await invite({ amountToSend: 500 })).body;
  const res = await claim(inv.code, invitee.toUpperCase());
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({
    code: inv.code,
    status: 'CLAIMED',
    inviterUma: inviter,
    inviteeUma: invitee,
    createdAt: inv.createdAt,
  });
  expect(Date.parse(res.body.claimedAt)).toBeGreaterThanOrEqual(Date.parse(inv.createdAt));
  expect((await a.api.get(`/invitations/${inv.code}`)).body).toEqual(res.body);

  const events = await claimedEvents(inv.code);
  expect(events).toHaveLength(1);
  expect(events[0].body).toMatchObject({ type: 'INVITATION.CLAIMED', data: res.body });
  expect(events[0].body.id).toMatch(/^Webhook:/);
  expect((await eventsOf(b.platformId, 'INVITATION.CLAIMED')).length).toBe(0);

  expectError(await claim(inv.code), 400, 'INVITATION_ALREADY_CLAIMED');
  expectError(await claim(inv.code, await customer(b, 'late')), 400, 'INVITATION_ALREADY_CLAIMED');
  expect(await claimedEvents(inv.code)).toHaveLength(1);
});

it("refuses claims by addresses that are not the calling platform's customers, by the inviter, and of unknown codes", async () => {
  const inv = (await invite()).body;
  expectError(await claim(inv.code, 'not-an-uma'), 400, 'INVALID_UMA_ADDRESS');
  expectError(await claim(inv.code, invitee, a), 400, 'INVALID_UMA_ADDRESS'); // b's customer, claimed through a
  const self = await claim(inv.code, inviter, a);
  expectError(self, 400, 'INVALID_UMA_ADDRESS');
  expect(self.body.message).toMatch(/inviter/);
  expectError(await claim('unknown-code'), 404, 'INVITATION_NOT_FOUND');
  expect((await a.api.get(`/invitations/${inv.code}`)).body.status).toBe('PENDING');
});

it('cancels: only the creating platform, only while pending', async () => {
  const inv = (await invite()).body;
  expectError(await cancel(inv.code, b), 403, 'FORBIDDEN');
  const res = await cancel(inv.code);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toMatchObject({ code: inv.code, status: 'CANCELLED' });
  expect(res.body).not.toHaveProperty('inviteeUma');
  expectError(await claim(inv.code), 400, 'INVITATION_CANCELLED');
  expectError(await cancel(inv.code), 400, 'INVITATION_CANCELLED');
  expect(await claimedEvents(inv.code)).toHaveLength(0);

  const claimed = (await invite()).body;
  expect((await claim(claimed.code)).status).toBe(200);
  expectError(await cancel(claimed.code), 400, 'INVITATION_ALREADY_CLAIMED');
  expectError(await cancel('unknown-code'), 404, 'INVITATION_NOT_FOUND');
});

it("expires at expiresAt on the caller's sandbox clock: reads EXPIRED, can be neither claimed nor cancelled", async () => {
  const inv = (await invite({ expiresAt: new Date(Date.now() + 3_600_000).toISOString() })).body;
  try {
    await setClockOffset(a.platformId, 7_200_000n);
    await setClockOffset(b.platformId, 7_200_000n);
    expect((await a.api.get(`/invitations/${inv.code}`)).body.status).toBe('EXPIRED');
    const late = await claim(inv.code);
    expectError(late, 400, 'INVALID_INPUT');
    expect(late.body.details.reason).toBe('INVITATION_EXPIRED');
    expectError(await cancel(inv.code), 400, 'INVALID_INPUT');
  } finally {
    await setClockOffset(a.platformId, 0n);
    await setClockOffset(b.platformId, 0n);
  }
  expect((await a.api.get(`/invitations/${inv.code}`)).body.status).toBe('PENDING');
});

it('two concurrent claims: exactly one succeeds and one event is recorded', async () => {
  const others = await Promise.all([customer(b, 'racer'), customer(b, 'racer')]);
  for (let round = 0; round < 3; round++) {
    const inv = (await invite()).body;
    const results = await Promise.all([claim(inv.code, others[0]), claim(inv.code, others[1])]);
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    const lost = results.find((r) => r.status !== 200)!;
    expectError(lost, 400, 'INVITATION_ALREADY_CLAIMED');
    const stored = (await a.api.get(`/invitations/${inv.code}`)).body;
    expect(stored.inviteeUma).toBe(won[0].body.inviteeUma);
    expect(await claimedEvents(inv.code)).toHaveLength(1);
  }
});

it('the guard itself: of two concurrent conditional updates past every pre-check, one moves the row', async () => {
  const inv = (await invite()).body;
  const who = (await b.api.get('/customers', { query: { umaAddress: invitee } })).body.data[0];
  const at = new Date();
  const attempt = () =>
    transaction((tx) =>
      repo.claim(inv.code, { inviteeUma: invitee, inviteePlatformId: b.platformId, inviteeCustomerId: who.id }, at, tx),
    );
  const moved = await Promise.all([attempt(), attempt(), attempt()]);
  expect(moved.filter(Boolean)).toHaveLength(1);
  expect(await transaction((tx) => repo.cancel(inv.code, a.platformId, at, tx))).toBe(false);
});

it('a concurrent claim and cancel: exactly one wins', async () => {
  const inv = (await invite()).body;
  const [claimed, cancelled] = await Promise.all([claim(inv.code), cancel(inv.code)]);
  expect([claimed.status, cancelled.status].filter((s) => s === 200)).toHaveLength(1);
  const final = (await a.api.get(`/invitations/${inv.code}`)).body.status;
  if (claimed.status === 200) {
    expect(final).toBe('CLAIMED');
    expectError(cancelled, 400, 'INVITATION_ALREADY_CLAIMED');
  } else {
    expect(final).toBe('CANCELLED');
    expectError(claimed, 400, 'INVITATION_CANCELLED');
  }
  expect(await claimedEvents(inv.code)).toHaveLength(claimed.status === 200 ? 1 : 0);
});

it('replays a create with the same Idempotency-Key', async () => {
  const key = `inv-${tag()}`;
  const first = await a.api.post('/invitations', { inviterUma: inviter }, { headers: { 'idempotency-key': key } });
  const again = await a.api.post('/invitations', { inviterUma: inviter }, { headers: { 'idempotency-key': key } });
  expect(first.status).toBe(201);
  expect(again.text).toBe(first.text);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
});

it('needs VIEW to read and MANAGE to create, claim and cancel', async () => {
  const inv = (await invite()).body;
  const viewer = await a.withPermissions('VIEW');
  expect((await viewer.get(`/invitations/${inv.code}`)).status).toBe(200);
  expectError(await viewer.post('/invitations', { inviterUma: inviter }), 403, 'FORBIDDEN');
  expectError(await viewer.post(`/invitations/${inv.code}/cancel`), 403, 'FORBIDDEN');
  const bViewer = await b.withPermissions('VIEW', 'TRANSACT');
  expectError(await bViewer.post(`/invitations/${inv.code}/claim`, { inviteeUma: invitee }), 403, 'FORBIDDEN');
  const manager = await a.withPermissions('MANAGE');
  expect((await manager.post('/invitations', { inviterUma: inviter })).status).toBe(201);
  expect((await manager.post(`/invitations/${inv.code}/cancel`)).status).toBe(200);
});
