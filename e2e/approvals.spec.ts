import { apiOk, checkPage, expect, signInStaff, test, unique, visit, type Json } from './support';
import { agentCall, agentToken, approvalAgent } from './live-data';

// Agent approvals in the console, in Chromium: two transfers held by an agent's APPROVAL_REQUIRED
// policy, each card showing what staff decide on (payee, why held, the customer's KYC, the agent's
// recent actions), one approved (its money moves, seen through the API) and one rejected with a
// reason (nothing moves), each leaving the queue without a reload; then a USD→EUR quote held by
// the approval threshold, shown with both currencies, the rate and its time left on the platform's
// clock, until the sandbox clock passes its expiry and the page says it failed unapproved. The
// pages checked (headers, axe, screenshots at 1280 and 390 px).
test.describe.configure({ mode: 'serial' });

async function heldTransfers() {
  const { customer, token, usd, hold } = await approvalAgent('Ada Agentowner');
  const first = await hold(1234);
  const second = await hold(5678);
  return { customer, token, usd, first, second };
}

/** The account's available balance, from the API's list of the customer's accounts. */
async function available(customerId: string, accountId: string): Promise<bigint> {
  const list = await apiOk('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`);
  return BigInt((list.data as Json[]).find((a) => a.id === accountId).balance.amount);
}

test('approve one agent action and reject another with a reason, without a reload', async ({ page }) => {
  const { customer, token, usd, first, second } = await heldTransfers();
  const before = await available(customer.id, usd);
  await signInStaff(page);
  await expect(page.getByRole('link', { name: /Approvals/ })).toBeVisible();
  // The overview counts what waits, as the API does, and leads to the queue.
  const waiting = (await apiOk('GET', '/agents/approvals?limit=1')).totalCount as number;
  expect(waiting).toBeGreaterThanOrEqual(2);
  await expect(page.getByRole('link', { name: `Agent actions to approve ${waiting}` })).toHaveAttribute(
    'href',
    '/console/approvals',
  );
  await visit(page, '/console/approvals');
  await expect(page.getByRole('heading', { name: 'Agent approvals' })).toBeVisible();
  const card = (id: string) => page.locator(`li[data-action-id="${id}"]`);
  // The card names the amount in its heading and in its figures.
  await expect(card(first.id).getByRole('heading', { name: /^12\.34 USD/ })).toBeVisible();
  await expect(card(second.id).getByRole('heading', { name: /^56\.78 USD/ })).toBeVisible();
  await expect(card(first.id).getByText('Invoice payer').first()).toBeVisible();
  // What staff decide on: who is paid where, why it was held, who the customer is and where their
  // KYC stands, and what the agent did before.
  const facts = card(first.id);
  await expect(facts).toContainText(/Payee: Pat Receiver · Test Bank · [A-Z_]+(, [A-Z_]+)* · DE/);
  await expect(facts).toContainText(
    "Held becauseThe agent's policy requires approval for every action (default execution mode APPROVAL_REQUIRED)",
  );
  const kyc = (await apiOk('GET', `/customers/${customer.id}`)).kycStatus as string;
  await expect(facts).toContainText(`Customer: Ada Agentowner · KYC ${kyc}`);
  await facts.getByText("Invoice payer's recent actions (1)").click();
  await expect(facts.getByRole('listitem').filter({ hasText: '56.78 USD' })).toContainText(
    '56.78 USDTRANSFER_OUTPENDING_APPROVAL',
  );
  await checkPage(page, 'console-approvals');

  // No reload: the page's URL and a marker set in the window survive the decisions.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  // Approving asks once more, naming the amount.
  await card(first.id).getByRole('button', { name: 'Approve…' }).click();
  await card(first.id).getByRole('button', { name: 'Approve 12.34 USD' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'is on its way' })).toBeVisible();
  await expect(card(first.id)).toHaveCount(0);
  expect((await agentCall(token, 'GET', `/agents/me/actions/${first.id}`)).status).toBe('APPROVED');
  const after = await available(customer.id, usd);
  expect(after).toBe(before - 1234n);

  await card(second.id).getByRole('button', { name: 'Reject…' }).click();
  await card(second.id).getByLabel('Reason for rejecting').fill('Supplier not on the approved list');
  await checkPage(page, 'console-approvals-reject');
  await card(second.id)
    .getByRole('button', { name: /^Reject 56\.78 USD/ })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'nothing moved' })).toBeVisible();
  await expect(card(second.id)).toHaveCount(0);
  const rejected = await agentCall(token, 'GET', `/agents/me/actions/${second.id}`);
  expect(rejected).toMatchObject({ status: 'REJECTED', rejectionReason: 'Supplier not on the approved list' });
  expect(await available(customer.id, usd)).toBe(after);
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  await checkPage(page, 'console-approvals-after');
});

/** A USD→EUR quote of an agent whose policy holds anything above 20.00 USD, executed: held. */
async function heldQuote() {
  const customer = await apiOk('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: unique('quote-owner'),
    fullName: 'Quinn Quoteholder',
    currencies: ['USD', 'EUR'],
  });
  const accounts = (await apiOk('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`))
    .data as Json[];
  const fiat = (code: string) =>
    accounts.find((a) => a.type === 'INTERNAL_FIAT' && a.balance.currency.code === code).id as string;
  await apiOk('POST', `/sandbox/internal-accounts/${fiat('USD')}/fund`, { amount: 100_000 });
  const { deviceCode } = await apiOk('POST', '/agents', {
    name: 'Quote runner',
    customerId: customer.id,
    policy: {
      permissions: ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES'],
      defaultExecutionMode: 'AUTO',
      approvalThresholds: { currency: 'USD', amount: 2000 },
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 200_000, monthlyLimit: 1_000_000 },
    },
  });
  const token = await agentToken(deviceCode.code);
  const quote = await agentCall(token, 'POST', '/agents/me/quotes', {
    source: { sourceType: 'ACCOUNT', accountId: fiat('USD') },
    destination: { destinationType: 'ACCOUNT', accountId: fiat('EUR') },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 3000,
  });
  const held = await agentCall(token, 'POST', `/agents/me/quotes/${quote.id}/execute`);
  expect(held.status).toBe('PENDING_APPROVAL');
  return { customer, token, usd: fiat('USD'), quote, held };
}

// Minor units to "27.49 EUR" with integers only (two-decimal currencies; the figures here are under 1,000).
const major = (minor: number, code: string) =>
  `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')} ${code}`;
/** The seconds a "m:ss left before the quote expires" text says. */
const secondsLeft = (text: string | null) => {
  const m = /(\d+):(\d\d) left before the quote expires/.exec(text ?? '');
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
};

test('a held quote: both currencies with the rate, its time left on the platform clock, and its expiry seen', async ({
  page,
}) => {
  const { customer, token, usd, quote, held } = await heldQuote();
  expect(quote.sendingCurrency.code).toBe('USD');
  const before = await available(customer.id, usd);
  await signInStaff(page);
  await visit(page, '/console/approvals');
  const card = page.locator(`li[data-action-id="${held.id}"]`);
  await expect(card.getByRole('heading', { name: /^30\.00 USD/ })).toBeVisible();
  const receiving = major(quote.totalReceivingAmount, 'EUR');
  await expect(card).toContainText(`Sends 30.00 USD · recipient gets ${receiving} at 1 USD = `);
  // The rate as people read it, from the API's exchangeRate (sending units per receiving unit).
  const rate = Number(/at 1 USD = ([\d.]+) EUR/.exec((await card.textContent()) ?? '')?.[1]);
  expect(Math.abs(rate - 1 / quote.exchangeRate)).toBeLessThan(0.0001);
  await expect(card).toContainText('Payee: EUR account of Quinn Quoteholder');
  await expect(card).toContainText('Above the approval threshold of 20.00 USD: 30.00 USD is 10.00 USD over');
  await expect(card).toContainText(/\d:\d\d left before the quote expires/);
  const left = secondsLeft(await card.textContent());
  expect(left).toBeGreaterThan(60);
  expect(left).toBeLessThanOrEqual(120);
  await checkPage(page, 'console-approvals-quote');

  // The countdown follows the platform's clock, not the reader's: a minute on the sandbox clock
  // takes a minute off what the card shows, without a reload.
  const advanced = await apiOk('POST', '/sandbox/clock/advance', { seconds: 60 });
  await expect.poll(async () => secondsLeft(await card.textContent())).toBeLessThanOrEqual(left - 55);
  await card.getByRole('button', { name: 'Approve…' }).click();
  await expect(card.getByRole('group', { name: 'Confirm approval' })).toContainText(
    `Approve and send 30.00 USD to EUR account of Quinn Quoteholder (recipient gets ${receiving} at 1 USD = `,
  );
  await expect(card.getByRole('group', { name: 'Confirm approval' })).toContainText('? The money moves at once.');
  await expect(card.getByRole('button', { name: 'Approve 30.00 USD' })).toBeVisible();

  // Past the quote's expiry on the platform's clock the action can no longer run: it leaves the
  // queue as FAILED, and the page says so instead of dropping it unseen. Nothing moved.
  // (On a slow machine the reader's own minutes may have brought it there already.)
  const toExpiry = Math.ceil((Date.parse(quote.expiresAt) - Date.parse(advanced.now)) / 1000) + 5;
  await apiOk('POST', '/sandbox/clock/advance', { seconds: Math.max(1, toExpiry) });
  await expect(card).toHaveCount(0);
  const expired = page.locator(`li[data-expired-id="${held.id}"]`);
  await expect(expired).toContainText(
    '30.00 USD · Quote runner (agent of Quinn Quoteholder): its quote expired before anyone approved it, so the action failed and nothing moved.',
  );
  await expect(page.getByRole('heading', { name: 'Expired before a decision (last 24 hours)' })).toBeVisible();
  const action = await agentCall(token, 'GET', `/agents/me/actions/${held.id}`);
  expect(action).toMatchObject({ status: 'FAILED' });
  expect(action.failureReason).toMatch(/expired before the action was approved/);
  expect(await available(customer.id, usd)).toBe(before);
  await checkPage(page, 'console-approvals-expired');
});
