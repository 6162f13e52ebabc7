import { apiOk, BASE, checkPage, expect, invoiceAgent, signInStaff, test, unique, visit, type Json } from './support';

// Agent approvals in the console, in Chromium: two transfers held by an agent's APPROVAL_REQUIRED
// policy, one approved (its money moves, seen through the API) and one rejected with a reason
// (nothing moves), each leaving the queue without a reload; the page checked (headers, axe,
// screenshots at 1280 and 390 px).
test.describe.configure({ mode: 'serial' });

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

async function heldTransfers() {
  const customer = await apiOk('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: unique('agent-owner'),
    fullName: 'Ada Agentowner',
    currencies: ['USD'],
  });
  const accounts = await apiOk('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`);
  const usd = (accounts.data as Json[]).find((a) => a.type === 'INTERNAL_FIAT' && a.balance.currency.code === 'USD');
  await apiOk('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount: 100_000 });
  const ext = await apiOk('POST', '/customers/external-accounts', {
    customerId: customer.id,
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: '400000000321',
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
  const redeemed = await fetch(`${BASE}/api/2025-10-13/agents/device-codes/${code}/redeem`, {
    method: 'POST',
  });
  const token = ((await redeemed.json()) as Json).accessToken as string;
  const transfer = (amount: number) =>
    agentCall(token, 'POST', '/agents/me/transfer-out', {
      source: { accountId: usd.id },
      destination: { accountId: ext.id },
      amount,
    });
  const first = await transfer(1234);
  const second = await transfer(5678);
  return { customer, token, usd, first, second };
}

/** The account's available balance, from the API's list of the customer's accounts. */
async function available(customerId: string, accountId: string): Promise<bigint> {
  const list = await apiOk('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`);
  return BigInt((list.data as Json[]).find((a) => a.id === accountId).balance.amount);
}

test('approve one agent action and reject another with a reason, without a reload', async ({ page }) => {
  const { customer, token, usd, first, second } = await heldTransfers();
  expect(first.status).toBe('PENDING_APPROVAL');
  const before = await available(customer.id, usd.id);
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
  await checkPage(page, 'console-approvals');

  // No reload: the page's URL and a marker set in the window survive the decisions.
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  // Approving asks once more, naming the amount.
  await card(first.id).getByRole('button', { name: 'Approve…' }).click();
  await card(first.id).getByRole('button', { name: 'Approve 12.34 USD' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'is on its way' })).toBeVisible();
  await expect(card(first.id)).toHaveCount(0);
  expect((await agentCall(token, 'GET', `/agents/me/actions/${first.id}`)).status).toBe('APPROVED');
  const after = await available(customer.id, usd.id);
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
  expect(await available(customer.id, usd.id)).toBe(after);
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  await checkPage(page, 'console-approvals-after');
});
