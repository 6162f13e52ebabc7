import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { apiOk, checkPage, expect, mxnBankAccount, signInStaff, test, unique, visit, walletCustomer } from './support';

// CSV exports of console lists and the overview's daily volume chart (issue 26, point 8): the
// "Export CSV" link downloads exactly the rows the filters select, checked against the API, and
// the overview draws completed volume per day, at 1280 and 390 px (checkPage).

/** The CSV's rows as cells (quoted cells unquoted), header first. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  for (const m of text.replace(/^\uFEFF/, '').matchAll(/("(?:[^"]|"")*"|[^,\r\n]*)(,|\r\n|$)/g)) {
    if (m[0] === '') break;
    row.push(m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]);
    if (m[2] !== ',') {
      rows.push(row);
      row = [];
    }
  }
  return rows;
}

async function download(page: Page, name: RegExp) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
  return { name: file.suggestedFilename(), rows: parseCsv(await readFile((await file.path())!, 'utf8')) };
}

test('exports the filtered customers and transactions, and charts daily volume', async ({ page }) => {
  const fullName = unique('Csv Exporter');
  const c = await walletCustomer(fullName);
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
      lockedCurrencyAmount: 1234,
    },
    { 'idempotency-key': crypto.randomUUID() },
  );
  await apiOk('POST', `/quotes/${quote.id}/execute`, undefined, { 'idempotency-key': crypto.randomUUID() });

  await signInStaff(page);
  await visit(page, `/console/customers?q=${encodeURIComponent(fullName)}`);
  const customers = await download(page, /Export CSV/);
  expect(customers.name).toMatch(/^corridor-customers-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(customers.rows.slice(1).map((r) => [r[0], r[5]])).toEqual([[fullName, c.id]]);

  await visit(page, `/console/transactions?customerId=${encodeURIComponent(c.id)}`);
  const txns = await download(page, /Export CSV/);
  const listed = await apiOk('GET', `/transactions?customerId=${encodeURIComponent(c.id)}&limit=100`);
  const idAt = txns.rows[0].indexOf('Transaction id');
  expect(txns.rows.slice(1).map((r) => r[idAt])).toEqual(listed.data.map((t: { id: string }) => t.id));
  const mine = txns.rows.find((r) => r[idAt] === quote.transactionId)!;
  expect(mine[txns.rows[0].indexOf('Sent amount')]).toBe('12.34');
  expect(mine[txns.rows[0].indexOf('Sent currency')]).toBe('USD');
  await checkPage(page, 'console-export-transactions');

  // The overview's chart: completed volume per day, per currency, with the figures beneath.
  await expect
    .poll(async () => (await apiOk('GET', `/transactions/${encodeURIComponent(quote.transactionId)}`)).status, {
      timeout: 30_000,
    })
    .toBe('COMPLETED');
  await visit(page, '/console');
  const chart = page.getByRole('img', { name: /Completed USD volume per day/ });
  await expect(chart).toBeVisible();
  await page.getByText('Figures per day (USD)').click();
  await expect(page.getByRole('table', { name: 'Completed USD volume per day' })).toBeVisible();
  await checkPage(page, 'console-overview-volume-chart');
});
