import type { Page } from '@playwright/test';
import { apiOk, BASE, checkPage, customerInReview, expect, signInStaff, test, visit } from './support';
import { approvalAgent, cardWithPurchase, describedPayment } from './live-data';

// The console live, by name and on a phone (issue 26, points 2, 3 and 7), in Chromium on data
// made through the API (e2e/live-data.ts): a newly held agent action raises a notice on whatever
// page is open and moves the badge and the overview's counter without a reload, as does a
// verification put into review; a payment's and a card transaction's state follow the sandbox
// without a reload; tables and cards name people and accounts (ids copyable); at 390 px no
// console page scrolls sideways, the navigation is a menu button and tables stack with status and
// amount on screen. Each page checked (headers, axe, screenshots at 1280 and 390 px).
test.describe.configure({ mode: 'serial' });

// The console promises 5 s; the poll runs every 4 s.
const LIVE = { timeout: 5_000 };

const waiting = async () => (await apiOk('GET', '/agents/approvals?limit=1')).totalCount as number;
const markWindow = (page: Page) => page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
const stillSameWindow = async (page: Page) =>
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);

test('a newly held action raises a notice on any page; badge, queue and overview counter follow without a reload', async ({
  page,
}) => {
  const { hold } = await approvalAgent();
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

const inReview = async () =>
  (await apiOk('GET', '/verifications?verificationStatus=PENDING_MANUAL_REVIEW&limit=1')).totalCount as number;

test("the overview's review counter and a payment's state move without a reload", async ({ page }) => {
  await signInStaff(page);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  const before = await inReview();
  await expect(
    page.getByRole('link', { name: `Verifications to review ${before.toLocaleString('en-US')}` }),
  ).toBeVisible();
  await markWindow(page);

  // A customer put into manual review through the API while the page is open: the counter moves
  // and the customer joins the list of who waits, by name.
  const { customer } = await customerInReview();
  const after = await inReview();
  expect(after).toBe(before + 1);
  await expect(
    page.getByRole('link', { name: `Verifications to review ${after.toLocaleString('en-US')}` }),
  ).toBeVisible(LIVE);
  const reviews = page.getByRole('region', { name: 'Waiting for review' });
  await expect(reviews.getByRole('button', { name: `Copy id ${customer.id}` })).toBeVisible(LIVE);
  await stillSameWindow(page);

  // A payment's page follows the payment: its state as the API tells it, then the next one the
  // sandbox moves it to, without a reload.
  const transactionId = await describedPayment('Rent for April');
  await visit(page, `/console/transactions/${encodeURIComponent(transactionId)}`);
  const status = page.getByTestId('live-status');
  const first = (await apiOk('GET', `/transactions/${transactionId}`)).status as string;
  await expect(status).toHaveText(first);
  await markWindow(page);
  await apiOk('POST', '/sandbox/clock/advance', { seconds: 600 });
  const next = (await apiOk('GET', `/transactions/${transactionId}`)).status as string;
  expect(next).not.toBe(first);
  await expect(status).toHaveText(next, LIVE);
  await stillSameWindow(page);
  await checkPage(page, 'console-live-payment-state');
});

test('a card by its holder and account names; its purchase on a page of its own that follows the state', async ({
  page,
}) => {
  const cardId = (await cardWithPurchase()).card.id as string;
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
