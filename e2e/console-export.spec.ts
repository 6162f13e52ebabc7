import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { parseCsv } from '../tests/support/csv';
import {
  STAFF,
  apiOk,
  checkPage,
  expect,
  invoiceAgent,
  mxnBankAccount,
  signInStaff,
  test,
  unique,
  visit,
  walletCustomer,
} from './support';

// CSV exports of console lists and the overview's daily volume chart (issue 26, point 8): the
// "Export CSV" link downloads exactly the rows the filters select, checked against the API, and
// the overview draws completed volume per day, at 1280 and 390 px (checkPage); the agents and
// the audit log are downloaded at both widths.

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

/** A cell of a CSV row by its header. */
const cellOf = (rows: string[][], row: string[], header: string) => row[rows[0].indexOf(header)];

test('exports the filtered agents and the filtered audit log, at 1280 and 390 px', async ({ page }) => {
  const fullName = unique('Agent Exporter');
  const c = await walletCustomer(fullName);
  const { agent } = await invoiceAgent(c.id, 'AUTO');
  await signInStaff(page);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await visit(page, `/console/agents?customerId=${encodeURIComponent(c.id)}`);
    const agents = await download(page, /Export CSV/);
    expect(agents.name).toMatch(/^corridor-agents-\d{4}-\d{2}-\d{2}\.csv$/);
    const listed = await apiOk('GET', `/agents?customerId=${encodeURIComponent(c.id)}&limit=100`);
    const rows = agents.rows.slice(1);
    expect(rows.map((r) => cellOf(agents.rows, r, 'Agent id'))).toEqual(listed.data.map((a: { id: string }) => a.id));
    const [mine] = rows;
    expect(
      ['Agent', 'Customer', 'Limit per transaction', 'Daily limit', 'Limit currency'].map((h) =>
        cellOf(agents.rows, mine, h),
      ),
    ).toEqual(['Invoice payer', fullName, '500.00', '2000.00', 'USD']);
    expect(cellOf(agents.rows, mine, 'Agent id')).toBe(agent.id);
  }
  await checkPage(page, 'console-export-agents');

  // The audit log, filtered to this staff member's exports: the two downloads above, with their filters.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await visit(page, `/console/audit?actor=${encodeURIComponent(STAFF.email)}&action=list.export`);
    await expect(page.getByLabel('Action', { exact: true })).toHaveValue('list.export');
    const audit = await download(page, /Export CSV/);
    expect(audit.name).toMatch(/^corridor-audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = audit.rows.slice(1);
    expect(new Set(rows.map((r) => cellOf(audit.rows, r, 'Action code')))).toEqual(new Set(['list.export']));
    expect(new Set(rows.map((r) => cellOf(audit.rows, r, 'Staff email')))).toEqual(new Set([STAFF.email]));
    const agentExports = rows.filter(
      (r) =>
        cellOf(audit.rows, r, 'Object id') === 'agents' &&
        JSON.parse(cellOf(audit.rows, r, 'Details')).filters.customerId === c.id,
    );
    expect(agentExports).toHaveLength(2);
    expect(cellOf(audit.rows, agentExports[0], 'Action')).toBe('Exported a list as CSV');
  }
  await checkPage(page, 'console-export-audit');
});
