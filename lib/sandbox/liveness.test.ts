import { afterEach, beforeAll, expect, it } from 'vitest';
import { eventsOf } from '@/lib/events/outbox';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { euCustomer, type ScaTestCustomer } from '@/lib/sca/testing';
import { solanaWallet } from '@/lib/external-accounts/testing';
import { freezeClock } from './clock';
import { switchMode } from '@/tests/support/mode';

// Every verificationLink the sandbox hands out answers: the sandbox liveness page, followed from
// the API's answer, shows the check and completes it with its button; the API then shows the
// check's outcome. The platform's clock is frozen, so nothing here is the timed simulation's doing.
const { GET, POST } = await import('@/app/sandbox/liveness/[id]/route');

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform({ embeddedWallet: false });
  await freezeClock(p.platformId);
});
afterEach(() => {
  switchMode('sandbox');
});

/** Requests the link as a browser would: GET it, or submit its form (POST, same origin). */
async function follow(link: string, method: 'GET' | 'POST' = 'GET', origin?: string) {
  const url = new URL(link);
  const headers: Record<string, string> = { host: url.host, 'x-nonce': 'n0nce' };
  if (method === 'POST') {
    headers.origin = origin ?? url.origin;
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const req = new Request(url, { method, headers, body: method === 'POST' ? '' : undefined });
  // The router hands the route its dynamic segment as it appears in the path.
  const ctx = { params: Promise.resolve({ id: url.pathname.split('/').pop()! }) };
  const res = await (method === 'GET' ? GET : POST)(req, ctx);
  return { status: res.status, location: res.headers.get('location'), html: await res.text(), headers: res.headers };
}

const statusOn = (html: string) => /data-testid="status">([^<]*)</.exec(html)?.[1];

async function startReset(c: ScaTestCustomer) {
  const res = await p.api.post('/sca/factors/reset', { factor: 'SMS_OTP' }, { query: c.q });
  expect(res.status, res.text).toBe(201);
  return res.body as { resetId: string; verificationLink: string };
}
const resetStatus = async (c: ScaTestCustomer, id: string) =>
  (await p.api.get(`/sca/factors/reset/${id}`, { query: c.q })).body.status;

it("a factor reset's link opens a page whose button completes the check; the API shows it passed", async () => {
  const c = await euCustomer(p);
  const reset = await startReset(c);
  const shown = await follow(reset.verificationLink);
  expect(shown.status, shown.html).toBe(200);
  expect(shown.headers.get('content-type')).toMatch(/^text\/html/);
  expect(statusOn(shown.html)).toBe('INITIATED');
  expect(shown.html).toContain('<button type="submit">Complete the liveness check</button>');
  expect(shown.html).toContain('<style nonce="n0nce">');
  expect(await resetStatus(c, reset.resetId)).toBe('INITIATED');

  const done = await follow(reset.verificationLink, 'POST');
  expect(done.status).toBe(303);
  expect(done.location).toBe(new URL(reset.verificationLink).pathname);
  expect(await resetStatus(c, reset.resetId)).toBe('LIVENESS_PASSED');
  const after = await follow(reset.verificationLink);
  expect(statusOn(after.html)).toBe('LIVENESS_PASSED');
  expect(after.html).not.toContain('<button');
  // The reset goes on as after any passed check: completing it sets the new phone number.
  const finish = await p.api.post(
    `/sca/factors/reset/${reset.resetId}/complete`,
    { mobile: { countryCode: '+49', number: '1700000009' } },
    { query: c.q },
  );
  expect(finish.status, finish.text).toBe(204);
});

it('completes with the outcome the magic values choose: liveness-rejected is REJECTED', async () => {
  const c = await euCustomer(p, { email: `r+liveness-rejected.${Date.now()}@example.com` });
  const reset = await startReset(c);
  expect((await follow(reset.verificationLink, 'POST')).status).toBe(303);
  expect(await resetStatus(c, reset.resetId)).toBe('REJECTED');
  // Pressing again changes nothing.
  expect((await follow(reset.verificationLink, 'POST')).status).toBe(303);
  expect(await resetStatus(c, reset.resetId)).toBe('REJECTED');
});

it("a wallet ownership check's link completes through the sandbox's liveness outcome: the account turns ACTIVE", async () => {
  const owner = (await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Face Page', region: 'ES' }))
    .body.id;
  const acct = await p.api.post('/customers/external-accounts', {
    customerId: owner,
    currency: 'USDC',
    ownershipType: 'FIRST_PARTY',
    accountInfo: { accountType: 'SOLANA_WALLET', address: solanaWallet().address },
  });
  expect(acct.status, acct.text).toBe(201);
  const ch = await p.api.post(`/customers/external-accounts/${acct.body.id}/challenge`, { method: 'LIVENESS' });
  expect(ch.status, ch.text).toBe(201);
  const shown = await follow(ch.body.verificationLink);
  expect(shown.status, shown.html).toBe(200);
  expect(statusOn(shown.html)).toBe('PENDING');
  expect(shown.html).toContain(acct.body.id);

  expect((await follow(ch.body.verificationLink, 'POST')).status).toBe(303);
  expect((await p.api.get(`/customers/external-accounts/${acct.body.id}`)).body.status).toBe('ACTIVE');
  expect(statusOn((await follow(ch.body.verificationLink)).html)).toBe('SUCCEEDED');
  const events = (await eventsOf(p.platformId, 'EXTERNAL_ACCOUNT.STATUS_UPDATED'))
    .filter((e) => (e.body.data as { id: string }).id === acct.body.id)
    .map((e) => (e.body.data as { status: string }).status);
  expect(events).toEqual(['ACTIVE']);
});

it('refuses a form posted from another site, and answers 404 for unknown ids and in production', async () => {
  const c = await euCustomer(p);
  const reset = await startReset(c);
  const forged = await follow(reset.verificationLink, 'POST', 'https://evil.example');
  expect(forged.status).toBe(403);
  expect(await resetStatus(c, reset.resetId)).toBe('INITIATED');

  const base = new URL(reset.verificationLink).origin;
  for (const id of ['TwoFactorReset:00000000-0000-4000-8000-000000000000', 'Challenge:nope', 'Customer:x', '%E0%A4%A'])
    for (const method of ['GET', 'POST'] as const)
      expect((await follow(`${base}/sandbox/liveness/${id}`, method)).status, `${method} ${id}`).toBe(404);

  switchMode('production');
  expect((await follow(reset.verificationLink)).status).toBe(404);
  expect((await follow(reset.verificationLink, 'POST')).status).toBe(404);
  switchMode('sandbox');
  expect(await resetStatus(c, reset.resetId)).toBe('INITIATED');
});
