import type { Page } from '@playwright/test';
import {
  apiOk,
  BASE,
  checkPage,
  customerInReview,
  expect,
  invoiceAgent,
  mxnBankAccount,
  signInStaff,
  test,
  unique,
  visit,
  walletCustomer,
  type Json,
} from './support';

// The console live, by name and on a phone (issue 26, points 2, 3 and 7), in Chromium on data
// made through the API: a newly held agent action raises a notice on whatever page is open and
// moves the badge and the overview's counter without a reload; a card transaction's state follows
// a clearing without a reload; tables and cards name people and accounts (ids copyable); at 390 px
// no console page scrolls sideways, the navigation is a menu button and tables stack with status
// and amount on screen. Each page checked (headers, axe, screenshots at 1280 and 390 px).
test.describe.configure({ mode: 'serial' });

// The console promises 5 s; the poll runs every 4 s.
const LIVE = { timeout: 5_000 };

const agentCall = async (token: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${BASE}/api/2025-10-13${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as Json;
  expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
  return json;
};

async function fundedUsd(customerId: string, amount: number) {
  const accounts = await apiOk('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`);
  const usd = (accounts.data as Json[]).find((a) => a.type === 'INTERNAL_FIAT' && a.balance.currency.code === 'USD');
  await apiOk('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount });
  return usd.id as string;
}

/** An agent whose every transfer waits for approval, and a function that has it hold one. */
async function approvalAgent() {
  const customer = await apiOk('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: unique('live-owner'),
    fullName: 'Ada Lovelace',
    currencies: ['USD'],
  });
  const usd = await fundedUsd(customer.id, 100_000);
  const ext = await apiOk('POST', '/customers/external-accounts', {
    customerId: customer.id,
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '400000000654',
      routingNumber: '021000021',
      bankAccountType: 'CHECKING',
      bankName: 'Test Bank',
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName: 'Pat Receiver',
        countryOfResidence: 'DE',
        address: { line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' },
      },
    },
  });
  const { code } = await invoiceAgent(customer.id, 'APPROVAL_REQUIRED');
  const redeemed = await fetch(`${BASE}/api/2025-10-13/agents/device-codes/${code}/redeem`, { method: 'POST' });
  const token = ((await redeemed.json()) as Json).accessToken as string;
  return async (amount: number) => {
    const held = await agentCall(token, 'POST', '/agents/me/transfer-out', {
      source: { accountId: usd },
      destination: { accountId: ext.id },
      amount,
    });
    expect(held.status).toBe('PENDING_APPROVAL');
    return held;
  };
}

const waiting = async () => (await apiOk('GET', '/agents/approvals?limit=1')).totalCount as number;
const markWindow = (page: Page) => page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
const stillSameWindow = async (page: Page) =>
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);

test('a newly held action raises a notice on any page; badge, queue and overview counter follow without a reload', async ({
  page,
}) => {
  const hold = await approvalAgent();
  await signInStaff(page);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await markWindow(page);

  const first = await hold(2500);
  const notice = page.getByTestId('held-notice');
  await expect(notice).toContainText('New action waiting for approval: Invoice payer wants to move 25.00 USD', LIVE);
  let total = (await waiting()).toLocaleString('en-US');
  await expect(page.getByRole('link', { name: `Agent actions to approve ${total}` })).toBeVisible(LIVE);
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByTestId('approvals-badge')).toHaveText(`${total} pending`, LIVE);
  await stillSameWindow(page);
  await checkPage(page, 'console-live-notice');

  // On another page, at phone width: the notice again, and the count on the menu button.
  await page.setViewportSize({ width: 390, height: 844 });
  await visit(page, '/console/cards');
  await markWindow(page);
  await hold(3100);
  await expect(notice).toContainText('Invoice payer wants to move 31.00 USD', LIVE);
  total = (await waiting()).toLocaleString('en-US');
  const menu = page.getByRole('button', { name: /^Menu/ });
  await expect(menu.getByTestId('approvals-badge')).toHaveText(`${total} pending`, LIVE);
  await stillSameWindow(page);
  await page.screenshot({
    path: `${process.env.E2E_SCREENSHOT_DIR || 'test-results/screenshots'}/console-live-notice-phone-390.png`,
  });

  // The notice leads to the queue, where the action shows by name.
  await notice.getByRole('link', { name: 'Review' }).click();
  await page.waitForURL(/\/console\/approvals$/);
  await expect(page.locator(`li[data-action-id="${first.id}"]`)).toContainText('Ada Lovelace');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The queue itself takes in a new hold without a reload: its count, and the action when it falls
  // on the first page (oldest first; other specs may leave actions waiting before it).
  await markWindow(page);
  const third = await hold(4700);
  const count = await waiting();
  await expect(page.getByTestId('queue-count')).toHaveText(`${count.toLocaleString('en-US')} waiting`, LIVE);
  if (count <= 20) await expect(page.locator(`li[data-action-id="${third.id}"]`)).toBeVisible(LIVE);
  await stillSameWindow(page);
});

/** A payment out to Mexico with a description, from a funded USD account. */
async function describedPayment() {
  const tina = await walletCustomer('Tina Transfer');
  const fiat = await fundedUsd(tina.id, 50_000);
  const bank = await mxnBankAccount(tina.id);
  const quote = await apiOk(
    'POST',
    '/quotes',
    {
      source: { sourceType: 'ACCOUNT', accountId: fiat },
      destination: { destinationType: 'ACCOUNT', accountId: bank.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
      description: 'Rent for March',
    },
    { 'idempotency-key': crypto.randomUUID() },
  );
  await apiOk('POST', `/quotes/${quote.id}/execute`, undefined, { 'idempotency-key': crypto.randomUUID() });
  return quote.transactionId as string;
}

/** An active card of a funded cardholder with one purchase authorized on it. */
async function cardWithPurchase() {
  const holder = await apiOk('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: unique('live-cardholder'),
    fullName: 'Linus Cardholder',
    currencies: ['USD'],
  });
  const usd = await fundedUsd(holder.id, 50_000);
  const card = await apiOk('POST', '/cards', {
    cardholderId: holder.id,
    platformCardId: unique('card'),
    form: 'VIRTUAL',
    fundingSources: [usd],
    maxSpendPerTransaction: 20_000,
  });
  await expect.poll(async () => (await apiOk('GET', `/cards/${card.id}`)).state, { timeout: 20_000 }).toBe('ACTIVE');
  await apiOk('POST', `/sandbox/cards/${encodeURIComponent(card.id)}/simulate/authorization`, {
    amount: 1250,
    currency: { code: 'USD' },
    merchant: { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' },
  });
  return card.id as string;
}

test('overview and transactions name people and accounts; ids copy whole', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
  const { customer: reviewed } = await customerInReview();
  const transactionId = await describedPayment();
  await signInStaff(page);
  // Overview: who waits for review, by name.
  const reviews = page.getByRole('region', { name: 'Waiting for review' });
  await expect(reviews.getByRole('link', { name: 'Grace Hopper 001' }).first()).toHaveAttribute(
    'href',
    `/console/customers/${encodeURIComponent(reviewed.id)}`,
  );

  // Transactions: customer, counterparty and description by name, with status and amount.
  await visit(page, '/console/transactions');
  const row = page.getByRole('row').filter({ hasText: 'Rent for March' });
  await expect(row).toContainText('Tina Transfer');
  await expect(row).toContainText('Ada Lovelace');
  await expect(row).toContainText('10.00 USD');
  await expect(row.getByRole('link', { name: 'Rent for March' })).toHaveAttribute(
    'href',
    `/console/transactions/${encodeURIComponent(transactionId)}`,
  );
  await row.getByRole('button', { name: `Copy id ${transactionId}` }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(transactionId);
  await checkPage(page, 'console-live-transactions');

  await visit(page, `/console/transactions/${encodeURIComponent(transactionId)}`);
  await expect(page.getByRole('heading', { name: 'Rent for March' })).toBeVisible();
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary.getByRole('link', { name: 'Tina Transfer', exact: true })).toBeVisible();
  await expect(summary.getByText('USD account of Tina Transfer')).toBeVisible();
  await expect(summary.getByText(/^Ada Lovelace/).first()).toBeVisible();
  await checkPage(page, 'console-live-transaction');
});

test('a card by its holder and account names; its purchase on a page of its own that follows the state', async ({
  page,
}) => {
  const cardId = await cardWithPurchase();
  await signInStaff(page);
  await visit(page, `/console/cards/${encodeURIComponent(cardId)}`);
  const facts = page.getByRole('region', { name: 'Card', exact: true });
  await expect(facts.getByRole('link', { name: 'Linus Cardholder' })).toBeVisible();
  await expect(page.getByRole('region', { name: /Funding sources/ })).toContainText('USD account of Linus Cardholder');
  const purchases = page.getByRole('region', { name: 'Card transactions' });
  const purchase = purchases.getByRole('row').filter({ hasText: 'BLUE BOTTLE COFFEE SF' });
  await expect(purchase).toContainText('Fast food and coffee shops (5814)');
  await expect(purchase).toContainText('US');
  await expect(purchase).toContainText('12.50 USD');
  await expect(purchase).toContainText('AUTHORIZED');
  await checkPage(page, 'console-live-card');

  // Its own page, not the card's; the state follows a clearing without a reload.
  await purchase.getByRole('link', { name: 'BLUE BOTTLE COFFEE SF' }).click();
  await page.waitForURL(/\/transactions\/CardTransaction/);
  const txId = decodeURIComponent(page.url().split('/').pop()!);
  expect(page.url()).toContain(`/console/cards/${encodeURIComponent(cardId)}/transactions/`);
  await expect(page.getByRole('heading', { name: 'BLUE BOTTLE COFFEE SF' })).toBeVisible();
  const status = page.getByTestId('live-status');
  await expect(status).toHaveText('AUTHORIZED');
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText('Linus Cardholder');
  await checkPage(page, 'console-live-card-transaction');
  await markWindow(page);
  await apiOk('POST', `/sandbox/cards/${encodeURIComponent(cardId)}/simulate/clearing`, {
    cardTransactionId: txId,
    amount: 1250,
  });
  await expect
    .poll(async () => (await apiOk('GET', `/transactions/${txId}`)).status, { timeout: 20_000 })
    .toBe('SETTLED');
  await expect(status).toHaveText('SETTLED', LIVE);
  await stillSameWindow(page);

  // Another card's URL is not this transaction's page.
  const otherCard = `/console/cards/${encodeURIComponent(cardId.replace(/.$/, (c) => (c === '0' ? '1' : '0')))}`;
  // (Fetched, not opened: a 404 document would be a console error in the page.)
  const wrong = await page.request.get(`${otherCard}/transactions/${encodeURIComponent(txId)}`);
  const text = await wrong.text();
  expect(text).toContain('There is no such record on this platform');
  expect(text).not.toContain('BLUE BOTTLE COFFEE SF');
});

const CONSOLE_PAGES = [
  '/console',
  '/console/approvals',
  '/console/agents',
  '/console/customers',
  '/console/transactions',
  '/console/cards',
  '/console/webhooks',
  '/console/tokens',
  '/console/settings',
  '/console/sandbox',
  '/console/staff',
  '/console/audit',
];

test('at 390 px: no console page scrolls sideways, the menu collapses, tables keep status and amount', async ({
  page,
}) => {
  await signInStaff(page);
  // Detail pages of objects the earlier tests made (the runner's database is shared by the specs).
  const firstHref = async (list: string, pattern: RegExp) => {
    await visit(page, list);
    const links = await page.locator('main a').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    return links.find((h) => pattern.test(h));
  };
  const details = [
    await firstHref('/console/transactions', /^\/console\/transactions\/Transaction/),
    await firstHref('/console/cards', /^\/console\/cards\/Card[^/]*$/),
    await firstHref('/console/customers', /^\/console\/customers\/Customer/),
    await firstHref('/console/agents', /^\/console\/agents\/Agent/),
  ].filter((h): h is string => Boolean(h));
  expect(details.length).toBeGreaterThanOrEqual(3);
  const cardPage = details.find((h) => h.startsWith('/console/cards/'))!;
  details.push((await firstHref(cardPage, /\/transactions\/CardTransaction/))!);

  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of [...CONSOLE_PAGES, ...details]) {
    await visit(page, path);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${path} at 390 px`).toBeLessThanOrEqual(390);
  }

  // The navigation is one button; opened, it lists every section; a followed link closes it.
  await visit(page, '/console/transactions');
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav).toBeHidden();
  const menu = page.getByRole('button', { name: /^Menu/ });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await menu.click();
  await expect(nav).toBeVisible();
  await checkPage(page, 'console-live-menu-open', { fullPage: false });
  await page.setViewportSize({ width: 390, height: 844 });
  await nav.getByRole('link', { name: 'Cards' }).click();
  await page.waitForURL(/\/console\/cards$/);
  await expect(nav).toBeHidden();

  // Tables stack: a transaction's status and amount are on screen, labelled by their column.
  await visit(page, '/console/transactions');
  const row = page.getByRole('row').filter({ hasText: 'Rent for March' }).first();
  for (const cell of [row.getByText('10.00 USD'), row.locator('td').nth(3)]) {
    const box = (await cell.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  // Each stacked cell shows its column's name (the ::before reads data-label).
  await expect(row.locator('td').nth(4)).toHaveAttribute('data-label', 'Amount');
  await expect(row.locator('td').nth(3)).toHaveAttribute('data-label', 'Status');
  await page.screenshot({
    path: `${process.env.E2E_SCREENSHOT_DIR || 'test-results/screenshots'}/console-live-transactions-phone-390.png`,
  });
});
