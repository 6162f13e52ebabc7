import type { Page } from '@playwright/test';
import { apiOk, BASE, checkPage, expect, invoiceAgent, signInStaff, test, unique, visit } from './support';

// Agents in the console, in Chromium: an agent created through the API (not yet connected), found
// in the agents list, paused and resumed from its page, its daily limit changed (a refused value
// typed in major units, a malformed value refused on its field, a contradictory one saved only
// after a warning, then threshold, permissions and allowed accounts), a new device code generated
// and redeemed — each change seen through the API and recorded in the agent's staff actions; the
// pages checked (headers, axe, screenshots at 1280 and 390 px).
test.describe.configure({ mode: 'serial' });

const redeem = async (code: string) =>
  (await fetch(`${BASE}/api/2025-10-13/agents/device-codes/${code}/redeem`, { method: 'POST' })).status;

async function newAgent() {
  const customer = await apiOk('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: unique('agent-owner'),
    fullName: 'Ada Agentkeeper',
    currencies: ['USD'],
  });
  const { agent, code } = await invoiceAgent(customer.id, 'AUTO');
  return { customer, agent, firstCode: code };
}

// The policy form: refusals on their field, a warning before a contradictory limit, then every field.
async function changePolicy(page: Page, agentId: string) {
  // Amounts are typed as the page shows them, in major units with the currency beside the field.
  // A malformed one is refused on its field, before anything is sent; a good one is in force at once.
  const form = page.getByRole('region', { name: 'Change the policy' });
  const daily = form.getByLabel(/^Daily limit \(USD\)/);
  await expect(daily).toHaveValue('2,000.00');
  await daily.fill('-5');
  await form.getByRole('button', { name: 'Save the policy' }).click();
  await expect(form.getByText('The amount cannot be negative')).toBeVisible();
  await expect(daily).toHaveAttribute('aria-invalid', 'true');
  await daily.fill('12,50');
  await form.getByRole('button', { name: 'Save the policy' }).click();
  await expect(form.getByText(/Use a dot for decimals/)).toBeVisible();
  expect((await apiOk('GET', `/agents/${agentId}`)).policy.spendingLimits.dailyLimit).toBe(200_000);
  await checkPage(page, 'console-agent-policy-refused');

  // A daily limit below the per-transaction limit (500.00 USD) is saved only after a warning.
  await daily.fill('400.00');
  await form.getByRole('button', { name: 'Save the policy' }).click();
  const warning = form.getByRole('alert').filter({ hasText: 'Check these limits' });
  await expect(warning).toContainText('The daily limit (400.00 USD) is below the limit per transaction (500.00 USD)');
  await checkPage(page, 'console-agent-policy-warning');
  expect((await apiOk('GET', `/agents/${agentId}`)).policy.spendingLimits.dailyLimit).toBe(200_000);
  await daily.fill('3,000.00');
  await form.getByRole('button', { name: 'Save the policy' }).click();
  await expect(form.getByRole('status')).toContainText('Policy saved');
  expect((await apiOk('GET', `/agents/${agentId}`)).policy.spendingLimits.dailyLimit).toBe(300_000);
  await expect(page.getByRole('region', { name: 'Policy', exact: true })).toContainText('3,000.00 USD');

  // The rest of the policy: the approval threshold, permissions and the accounts it may use.
  await form.getByLabel(/^Approval needed above/).fill('250.00');
  await form.getByLabel(/Create quotes/).check();
  await form.getByLabel('Only these accounts').check();
  await form.getByRole('checkbox', { name: /USD/ }).first().check();
  await form.getByRole('button', { name: 'Save the policy' }).click();
  await expect(form.getByRole('status')).toContainText('Policy saved');
  const saved = (await apiOk('GET', `/agents/${agentId}`)).policy;
  expect(saved.approvalThresholds).toEqual({ currency: 'USD', amount: 25_000 });
  expect(saved.permissions).toEqual(expect.arrayContaining(['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES']));
  expect(saved.accountRestrictions.allowedAccountIds).toHaveLength(1);
  // The policy names the allowed account as staff know it, its id one click away to copy.
  const accountsFact = page.getByRole('region', { name: 'Policy', exact: true });
  await expect(accountsFact).toContainText(/Only these accounts\s*USD account of Ada Agentkeeper/);
  const [allowed] = saved.accountRestrictions.allowedAccountIds;
  await expect(accountsFact.getByRole('button', { name: `Copy id ${allowed}` })).toBeVisible();
  await expect(accountsFact).not.toContainText(allowed);
}

test('pause, resume, change the daily limit and generate a device code of an agent', async ({ page }) => {
  const { customer, agent, firstCode } = await newAgent();
  await signInStaff(page);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Agents' }).click();
  await expect(page.getByRole('heading', { name: 'Agents', exact: true })).toBeVisible();
  // Agents by name (many share one), each with its id to copy: the row is found by its id.
  const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: `Copy id ${agent.id}` }) });
  await expect(row.getByRole('link', { name: 'Invoice payer' })).toBeVisible();
  await expect(row.getByRole('link', { name: 'Ada Agentkeeper' })).toBeVisible();
  await checkPage(page, 'console-agents');

  // The filters: this customer's agents, not connected.
  await visit(page, `/console/agents?customerId=${encodeURIComponent(customer.id)}&isConnected=false`);
  await expect(page.getByRole('table', { name: 'Agents' }).getByRole('row')).toHaveCount(2);
  await row.getByRole('link', { name: 'Invoice payer' }).click();
  await expect(page.getByRole('heading', { name: 'Invoice payer' })).toBeVisible();
  const details = page.getByRole('region', { name: 'Agent', exact: true });
  await expect(page.getByRole('region', { name: 'Policy', exact: true })).toContainText('2,000.00 USD');
  await expect(page.getByRole('region', { name: 'Usage against limits' })).toContainText('0.00 USD');
  await checkPage(page, 'console-agent');

  await details.getByRole('button', { name: 'Pause' }).click();
  await expect(details.getByText('PAUSED', { exact: true })).toBeVisible();
  expect((await apiOk('GET', `/agents/${agent.id}`)).isPaused).toBe(true);
  await details.getByRole('button', { name: 'Resume' }).click();
  await expect(details.getByRole('button', { name: 'Pause' })).toBeVisible();
  expect((await apiOk('GET', `/agents/${agent.id}`)).isPaused).toBe(false);

  await changePolicy(page, agent.id);

  const codes = page.getByRole('region', { name: 'Device code' });
  await codes.getByRole('button', { name: 'Generate a new device code' }).click();
  const shown = codes.getByTestId('device-code');
  await expect(shown).toHaveText(/^CORRIDOR-AGENT-/);
  const code = (await shown.textContent())!.trim();
  expect(code).not.toBe(firstCode);
  await checkPage(page, 'console-agent-device-code');
  expect(await redeem(firstCode)).toBe(400);
  expect(await redeem(code)).toBe(200);

  await visit(page, `/console/agents/${encodeURIComponent(agent.id)}`);
  await expect(page.getByRole('region', { name: 'Device code' })).toContainText('The agent is connected');
  const staffActions = page.getByRole('region', { name: 'Staff actions' });
  await expect(staffActions.getByRole('listitem')).toHaveCount(5);
  for (const text of [
    'Paused the agent',
    'Resumed the agent',
    "Changed the agent's policy",
    'Generated a new device code',
  ])
    await expect(staffActions).toContainText(text);
  await expect(staffActions).not.toContainText(code);
  // The form sent what it changed, so the entry says what was changed.
  await expect(staffActions).toContainText('set: (spending limits: (daily limit: 3,000.00 USD))');

  // The agent also shows on its customer's page.
  await visit(page, `/console/customers/${encodeURIComponent(customer.id)}`);
  await expect(page.getByRole('region', { name: 'Agents' }).getByText('Invoice payer')).toBeVisible();
});
