import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  api,
  apiOk,
  checkPage,
  customerInReview,
  expect,
  signInStaff,
  STAFF,
  test,
  mxnBankAccount,
  visit,
  walletCustomer,
} from './support';

// The admin console in Chromium: sign-in (a wrong password refused, the session cookie's
// attributes, a planted cookie never promoted, sign-out ending the session), a manual KYC review
// decided in the console and seen through the API, a failed webhook replayed to a receiver that
// now answers, and every console page checked (headers, axe, screenshots).
test.describe.configure({ mode: 'serial' });

test('staff sign-in: wrong password refused, session cookie strict, sign-out ends the session', async ({
  page,
  context,
}) => {
  await signInStaff(page, STAFF.email, 'not-the-password', false);
  await expect(page.getByRole('alert').filter({ hasText: 'Wrong email or password' })).toBeVisible();
  await checkPage(page, 'console-sign-in');

  // A cookie planted before sign-in (session fixation) is neither accepted nor kept.
  await context.addCookies([
    { name: 'corridor_staff', value: 'planted-by-an-attacker', domain: 'localhost', path: '/' },
  ]);
  await visit(page, '/console');
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  await signInStaff(page);
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  const cookie = (await context.cookies()).find((c) => c.name === 'corridor_staff')!;
  expect(cookie.value).not.toBe('planted-by-an-attacker');
  expect(cookie.httpOnly).toBe(true);
  expect(cookie.sameSite).toBe('Strict');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/console\/sign-in$/);
  // The old cookie, replayed after sign-out, opens nothing: the session was revoked on the server.
  await context.addCookies([{ ...cookie }]);
  await visit(page, '/console/customers');
  await expect(page).toHaveURL(/\/console\/sign-in$/);
});

test('a manual KYC review decided in the console (recorded on the customer, seen through the API)', async ({
  page,
}) => {
  const { customer } = await customerInReview();
  await signInStaff(page);
  await visit(page, `/console/customers/${encodeURIComponent(customer.id)}`);
  await expect(page.getByText('PENDING_MANUAL_REVIEW')).toBeVisible();
  await expect(page.getByRole('img', { name: /PASSPORT/ })).toBeVisible();
  await checkPage(page, 'console-customer');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('region', { name: 'Verifications' }).getByText('APPROVED')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Staff actions' })).toContainText(`Approved the verification`);
  await expect(page.getByRole('region', { name: 'Staff actions' })).toContainText(STAFF.email);
  expect((await apiOk('GET', `/customers/${customer.id}`)).kycStatus).toBe('APPROVED');

  await visit(page, `/console/customers?q=${encodeURIComponent('Grace Hopper')}&status=APPROVED`);
  await expect(page.getByRole('link', { name: 'Grace Hopper 001' }).first()).toBeVisible();
  await checkPage(page, 'console-customers');
});

let receiver: Server;
let answer = 500;
const received: string[] = [];
test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push(body);
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer === 200 ? 'ok' : 'receiver down');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
});
test.afterAll(() => receiver?.close());

test('a failed webhook replayed from the console reaches the receiver', async ({ page }) => {
  const port = (receiver.address() as AddressInfo).port;
  await apiOk('PATCH', '/config', { webhookEndpoint: `http://127.0.0.1:${port}/hooks` });
  // Setting an endpoint queues a TEST of its own; the sandbox test send below is one more, failed
  // at once (the receiver answers 500) and never retried: the FAILED one to replay.
  const sent = await api('POST', '/sandbox/webhooks/test');
  expect(sent.status).toBeGreaterThanOrEqual(400);
  answer = 200;

  await signInStaff(page);
  await visit(page, '/console/webhooks?status=FAILED');
  await checkPage(page, 'console-webhooks');
  await page.getByRole('row', { name: /TEST/ }).first().getByRole('link').click();
  await page.waitForURL(/\/console\/webhooks\/Webhook/);
  await expect(page.getByRole('region', { name: 'Deliveries' }).getByText('HTTP 500')).toBeVisible();
  const eventId = decodeURIComponent(page.url().split('/').pop()!);
  const deliveriesOf = () => received.filter((b) => JSON.parse(b).id === eventId);
  expect(deliveriesOf()).toHaveLength(1);
  await page.getByRole('button', { name: 'Replay' }).click();
  await expect(page.getByRole('status')).toContainText('HTTP 200');
  await expect(page.getByRole('region', { name: 'Deliveries' }).getByText('DELIVERED').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Staff actions' })).toContainText('Replayed the webhook');
  expect(deliveriesOf()).toHaveLength(2);
  expect((await apiOk('GET', '/config')).webhookEndpoint).toContain(`:${port}/`);
  await checkPage(page, 'console-webhook');
  await apiOk('PATCH', '/config', { webhookEndpoint: null });
});

test('transactions, tokens, configuration, sandbox, staff and audit pages', async ({ page }) => {
  // A payment to look at: a customer's funded USD account pays out to their bank account in Mexico.
  const c = await walletCustomer('Tina Transfer');
  const fiat = (await apiOk('GET', `/customers/internal-accounts?customerId=${c.id}&type=INTERNAL_FIAT&currency=USD`))
    .data[0];
  await apiOk('POST', `/sandbox/internal-accounts/${fiat.id}/fund`, { amount: 50_000 });
  const bank = await mxnBankAccount(c.id);
  const quote = await apiOk(
    'POST',
    '/quotes',
    {
      source: { sourceType: 'ACCOUNT', accountId: fiat.id },
      destination: { destinationType: 'ACCOUNT', accountId: bank.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
    },
    { 'idempotency-key': crypto.randomUUID() },
  );
  await apiOk('POST', `/quotes/${quote.id}/execute`, undefined, { 'idempotency-key': crypto.randomUUID() });
  expect(quote.transactionId).toMatch(/^Transaction:/);

  await signInStaff(page);
  await visit(page, '/console');
  await checkPage(page, 'console-overview');
  await visit(page, '/console/transactions');
  await checkPage(page, 'console-transactions');
  await visit(page, `/console/transactions/${encodeURIComponent(quote.transactionId)}`);
  await expect(page.getByRole('heading', { name: 'Timeline' })).toBeVisible();
  await checkPage(page, 'console-transaction');

  await visit(page, '/console/tokens');
  await page.getByLabel('Name').fill('Reporting');
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByRole('status')).toContainText('Client secret');
  await checkPage(page, 'console-tokens');

  await visit(page, '/console/settings');
  await checkPage(page, 'console-settings');
  await visit(page, '/console/sandbox');
  await page.getByRole('button', { name: '1 hour' }).click();
  await page.getByRole('button', { name: 'Advance the clock' }).click();
  await expect(page.getByRole('status')).toContainText('Sandbox time is now');
  await checkPage(page, 'console-sandbox');

  await visit(page, '/console/staff');
  await page.getByLabel('Email').fill(`viewer-${Date.now()}@e2e.example`);
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('status')).toContainText('can sign in with this password');
  await checkPage(page, 'console-staff');
  await visit(page, '/console/audit');
  await expect(page.getByText('Created the API token').first()).toBeVisible();
  await checkPage(page, 'console-audit');
});
