import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { checkPage, expect, png, test, US_BANK_ACCOUNT_INFO, visit, type Json } from './support';

// The console's view of the payment rail (issue 25), on a production server of its own (the
// shared e2e server is a sandbox, where no payment goes over a rail): started here from the same
// build with CORRIDOR_MODE=production and the bring-your-own-rail adapter pointed at the
// reference receiver (examples/rail-receiver.mjs), which this spec drives. A pull-funded quote's
// payout FAILS and so does its refund; another's pull waits after the rail asked to retry. Staff
// see both on the overview, the filtered list and the transaction page, send the refund again
// (a new reference; a late callback for the old one changes nothing) and, when that fails too,
// record it as refunded outside Corridor. A third is paid out, then the payer's bank reverses its
// pull: staff record what the payer owes.
test.describe.configure({ mode: 'serial' });

type Receiver = {
  server: import('node:http').Server;
  instructions: Map<string, { instruction: Json }>;
  report(reference: string, status: string, opts?: { failureReason?: string }): Promise<{ status: number; body: Json }>;
};

const STAFF = { email: 'rail-admin@e2e.example', password: 'e2e-rail-admin-password-42' };
const CLIENT = { id: 'e2e-rail-client', secret: 'e2e-rail-secret-0123456789abcdef0123' };
let server: ChildProcess;
let base = '';
let dataDir = '';
let receiver: Receiver;
let rates: Server;
let carry: (i: Json) => Promise<Json> = async () => ({ status: 'ACCEPTED' });
const ids = { failed: '', waiting: '', customer: '', usd: '', eur: '' };

const pem = (k: import('node:crypto').KeyObject, kind: 'pkcs8' | 'spki') =>
  k.export({ type: kind, format: 'pem' }).toString();

async function api(method: string, p: string, body?: unknown) {
  const res = await fetch(`${base}/api/2025-10-13${p}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`,
      ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, `${method} ${p}: ${text}`).toBeLessThan(300);
  return (text ? JSON.parse(text) : null) as Json;
}

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const sent = (reference: string) =>
  until(`the rail to receive ${reference}`, async () => receiver.instructions.get(reference)?.instruction);
const refundStatus = async (id: string) => ((await api('GET', `/transactions/${id}`)).refund ?? {}).status;

async function startServer() {
  const corridor = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rail = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const mod = (await import(pathToFileURL(path.resolve('examples/rail-receiver.mjs')).href)) as {
    createReceiver(o: object): Receiver;
  };
  receiver = mod.createReceiver({
    corridorPublicKey: corridor.publicKey,
    privateKey: rail.privateKey,
    carry: (i: Json) => carry(i),
  });
  await new Promise<void>((r) => receiver.server.listen(0, '127.0.0.1', r));
  const railUrl = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/instructions`;
  // Production quotes only at a provider's rates: an exchange-rates API in Open Exchange Rates'
  // latest.json shape (docs/operations.md#exchange-rates), its figures published now.
  rates = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const timestamp = Math.floor(Date.now() / 1000);
    res.end(
      JSON.stringify({
        timestamp,
        base: 'USD',
        rates: { USD: 1, USDC: 1, USDT: 1, EUR: 0.92, MXN: 17.06, BTC: 0.0000155 },
      }),
    );
  });
  await new Promise<void>((r) => rates.listen(0, '127.0.0.1', r));
  const ratesUrl = `http://127.0.0.1:${(rates.address() as AddressInfo).port}/latest.json`;
  const port = 5800 + Math.floor(Math.random() * 800);
  base = `http://127.0.0.1:${port}`;
  dataDir = mkdtempSync(path.join(tmpdir(), 'corridor-rail-e2e-'));
  server = spawn(process.execPath, [path.resolve('scripts/start.mjs')], {
    env: {
      ...process.env,
      PORT: String(port),
      CORRIDOR_MODE: 'production',
      CORRIDOR_DATA_DIR: dataDir,
      CORRIDOR_PUBLIC_URL: base,
      DATABASE_URL: '',
      CORRIDOR_SECRET_KEY: '',
      CORRIDOR_CLIENT_ID: CLIENT.id,
      CORRIDOR_CLIENT_SECRET: CLIENT.secret,
      CORRIDOR_STAFF_EMAIL: STAFF.email,
      CORRIDOR_STAFF_PASSWORD: STAFF.password,
      CORRIDOR_WALLET_PLATFORM_ID: '',
      CORRIDOR_RAIL_URL: railUrl,
      CORRIDOR_RATES_URL: ratesUrl,
      CORRIDOR_RAIL_SIGNING_KEY: pem(corridor.privateKey, 'pkcs8'),
      CORRIDOR_RAIL_CALLBACK_PUBLIC_KEY: pem(rail.publicKey, 'spki'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  server.stdout!.on('data', (d) => (out += d));
  server.stderr!.on('data', (d) => (out += d));
  // A fresh embedded database migrates first: on a busy machine that takes minutes.
  await until(
    'the production server',
    async () => {
      if (server.exitCode !== null) throw new Error(`the server exited:\n${out}`);
      return /Wallet:\s+http/.test(out);
    },
    280_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n${out.slice(-3000)}`);
  });
}

/** A quote from the customer's USD bank account (a direct pull) to their EUR bank account, executed. */
async function pullQuote(customerId: string, usd: string, eur: string, amount: number) {
  const q = await api('POST', '/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: usd },
    destination: { destinationType: 'ACCOUNT', accountId: eur },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
  });
  await api('POST', `/quotes/${q.id}/execute`);
  return q.transactionId as string;
}

/** A customer verified the production way: documents, a verification under manual review, a staff approval. */
async function verifiedCustomer(page: Page) {
  const customer = await api('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    fullName: 'Grace Payer',
    birthDate: '1990-01-15',
    nationality: 'US',
    idType: 'SSN',
    identifier: '123-45-6789',
    address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
    currencies: ['USD'],
  });
  const form = new FormData();
  form.append('documentHolder', customer.id);
  form.append('documentType', 'PASSPORT');
  form.append('country', 'US');
  form.append('file', new File([png() as Uint8Array<ArrayBuffer>], 'passport.png', { type: 'image/png' }));
  await api('POST', '/documents', form);
  expect((await api('POST', '/verifications', { customerId: customer.id })).verificationStatus).toBe(
    'PENDING_MANUAL_REVIEW',
  );
  await signIn(page);
  await visit(page, `${base}/console/customers/${encodeURIComponent(customer.id)}`);
  const decide = page.getByRole('form', { name: /Decide the review of Grace Payer/ });
  await decide.getByLabel('Reason').selectOption('DOCUMENTS_VERIFIED');
  await decide.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('region', { name: 'Verifications' }).getByText('APPROVED')).toBeVisible();
  return customer;
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(420_000);
  await startServer();
  const page = await browser.newPage();
  const customer = await verifiedCustomer(page);
  await page.close();
  const account = (currency: string, accountInfo: object) =>
    api('POST', '/customers/external-accounts', { customerId: customer.id, currency, accountInfo });
  const usd = await account('USD', US_BANK_ACCOUNT_INFO);
  const eur = await account('EUR', {
    accountType: 'EUR_ACCOUNT',
    iban: 'DE89370400440532013000',
    beneficiary: US_BANK_ACCOUNT_INFO.beneficiary,
  });
  Object.assign(ids, { customer: customer.id, usd: usd.id, eur: eur.id });
  // 1. Pulled, paid out, the payout FAILED, the refund to the payer's bank FAILED too.
  ids.failed = await pullQuote(customer.id, usd.id, eur.id, 5_000);
  await sent(`${ids.failed}:pull`);
  await receiver.report(`${ids.failed}:pull`, 'COMPLETED');
  await sent(ids.failed);
  await receiver.report(ids.failed, 'FAILED', { failureReason: 'ACCOUNT_INVALID' });
  await sent(`${ids.failed}:refund`);
  await receiver.report(`${ids.failed}:refund`, 'FAILED', { failureReason: 'ACCOUNT_INVALID' });
  await until('the refund to fail', async () => (await refundStatus(ids.failed)) === 'FAILED');
  // 2. A pull the rail asks to retry in an hour: waiting on the rail.
  carry = async (i) =>
    i.type === 'PULL'
      ? { status: 'RETRY', reason: 'bank cut-off passed', retryAfterSeconds: 3600 }
      : { status: 'ACCEPTED' };
  ids.waiting = await pullQuote(customer.id, usd.id, eur.id, 2_500);
  await sent(`${ids.waiting}:pull`);
  carry = async () => ({ status: 'ACCEPTED' });
});

test.afterAll(async () => {
  try {
    process.kill(-server.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
  await until('the server to stop', async () => server.exitCode !== null || server.signalCode !== null, 20_000).catch(
    () => process.kill(-server.pid!, 'SIGKILL'),
  );
  await new Promise((r) => receiver.server.close(r));
  await new Promise((r) => rates.close(r));
  rmSync(dataDir, { recursive: true, force: true });
});

async function signIn(page: Page) {
  await visit(page, `${base}/console/sign-in`);
  await page.getByLabel('Email').fill(STAFF.email);
  await page.getByLabel('Password').fill(STAFF.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/console$/);
}

const stat = (page: Page, label: string) =>
  page.getByRole('link', { name: new RegExp(label) }).getByTestId('stat-value');

test('the overview counts what waits on the rail and the refunds needing staff; each opens the filtered list', async ({
  page,
}) => {
  await signIn(page);
  await expect(stat(page, 'Waiting on the payment rail')).toHaveText('1');
  await expect(stat(page, 'Refunds needing staff')).toHaveText('1');
  await checkPage(page, 'console-rail-overview');
  await page.getByRole('link', { name: /Refunds needing staff/ }).click();
  await page.waitForURL(/rail=STAFF/);
  await expect(page.getByRole('table', { name: 'Transactions' }).getByRole('row')).toHaveCount(2); // header + one
  await checkPage(page, 'console-rail-list-staff');
  await visit(page, `${base}/console/transactions?rail=WAITING`);
  await expect(page.getByLabel('Payment rail')).toHaveValue('WAITING');
  await expect(page.getByRole('table', { name: 'Transactions' }).getByRole('row')).toHaveCount(2);
  await visit(page, `${base}/console/transactions/${encodeURIComponent(ids.waiting)}`);
  await expect(page.getByTestId('rail-state')).toHaveText('Waiting to hand the pull to the rail again');
  await expect(page.getByText('bank cut-off passed')).toBeVisible();
  await checkPage(page, 'console-rail-waiting');
});

test('a refund that failed at the rail: sent again under a new reference, then recorded as refunded outside', async ({
  page,
}) => {
  await signIn(page);
  await visit(page, `${base}/console/transactions/${encodeURIComponent(ids.failed)}`);
  const block = page.getByRole('region', { name: 'Payment rail' });
  await expect(block.getByTestId('rail-state')).toContainText('Refund failed at the rail:');
  await expect(block.getByRole('button', { name: `Copy id ${ids.failed}:refund` })).toBeVisible();
  await block.getByRole('button', { name: 'Send the refund again' }).click();
  const confirm = block.getByRole('form', { name: 'Confirm: Send the refund again' });
  await expect(confirm).toContainText('50.00 USD');
  await expect(confirm).toContainText(`${ids.failed}:refund:2`);
  await checkPage(page, 'console-rail-refund-failed');
  await confirm.getByRole('button', { name: 'Confirm: send the refund again' }).click();
  await sent(`${ids.failed}:refund:2`);
  // A late callback about the first attempt changes nothing.
  expect((await receiver.report(`${ids.failed}:refund`, 'COMPLETED')).body).toMatchObject({ result: 'IGNORED' });
  await page.reload();
  await expect(block.getByTestId('rail-state')).toHaveText('Refund with the rail');
  await expect(block.getByRole('button', { name: `Copy id ${ids.failed}:refund:2` })).toBeVisible();
  await receiver.report(`${ids.failed}:refund:2`, 'FAILED', { failureReason: 'ACCOUNT_CANNOT_RECEIVE' });
  await page.reload();
  await expect(block.getByTestId('rail-state')).toContainText('Refund failed at the rail:');

  await block.getByRole('button', { name: 'Record as refunded outside Corridor' }).click();
  const record = block.getByRole('form', { name: 'Confirm: Record as refunded outside Corridor' });
  await expect(record.getByRole('button', { name: /Confirm/ })).toBeDisabled();
  await record.getByLabel(/How was the payer refunded/).fill('Wire 4411 from the operating account');
  await checkPage(page, 'console-rail-record-outside');
  await record.getByRole('button', { name: /Confirm/ }).click();
  await expect(block.getByTestId('rail-state')).toHaveText('Refunded outside Corridor (recorded by staff)');
  await expect(block.getByText(/Wire 4411/)).toBeVisible();
  await expect(block.getByRole('button', { name: 'Send the refund again' })).toHaveCount(0);
  const actions = page.getByRole('region', { name: 'Staff actions' });
  await expect(actions).toContainText('Sent the refund to the rail again');
  await expect(actions).toContainText('Recorded the refund as made outside Corridor');
  expect(await refundStatus(ids.failed)).toBe('COMPLETED');
  await checkPage(page, 'console-rail-refunded-outside');
});

test("the payer's bank reverses a pull whose money was paid out: staff record what the payer owes", async ({
  page,
}) => {
  const id = await pullQuote(ids.customer, ids.usd, ids.eur, 5_000);
  await sent(`${id}:pull`);
  await receiver.report(`${id}:pull`, 'COMPLETED');
  await sent(id);
  expect((await receiver.report(id, 'COMPLETED')).body).toMatchObject({ result: 'APPLIED' });
  expect((await receiver.report(`${id}:pull`, 'RETURNED')).body).toMatchObject({ result: 'APPLIED' });
  await signIn(page);
  await expect(stat(page, 'Refunds needing staff')).toHaveText('1');
  await visit(page, `${base}/console/transactions/${encodeURIComponent(id)}`);
  const block = page.getByRole('region', { name: 'Payment rail' });
  await expect(block.getByTestId('rail-state')).toHaveText("Pull reversed by the payer's bank after it completed");
  await block.getByRole('button', { name: 'Record what the payer owes' }).click();
  const confirm = block.getByRole('form', { name: 'Confirm: Record what the payer owes' });
  await expect(confirm).toContainText('The payer will owe 50.00 USD, recorded as payer receivable.');
  await checkPage(page, 'console-rail-record-payer-owes');
  await confirm.getByRole('button', { name: /Confirm/ }).click();
  await expect(block.getByTestId('rail-state')).toHaveText(
    "Pull reversed by the payer's bank after its money had gone on: recorded as owed by the payer",
  );
  await expect(block).toContainText('the payer owes 50.00 USD (payer receivable)');
  await expect(block.getByRole('button', { name: 'Record what the payer owes' })).toHaveCount(0);
  const actions = page.getByRole('region', { name: 'Staff actions' });
  await expect(actions).toContainText("Recorded what the payer owes after the pull's reversal");
  await expect(actions).toContainText('payer owes: 50.00 USD');
  await visit(page, `${base}/console`);
  await expect(stat(page, 'Refunds needing staff')).toHaveText('0');
});
