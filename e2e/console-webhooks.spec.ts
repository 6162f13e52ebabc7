import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { apiOk, checkPage, expect, signInStaff, STAFF, test, unique, visit } from './support';

// The console's webhooks page in Chromium (issue 26, point 8): "Send a test event" shows that
// attempt's outcome, the event kinds the endpoint receives are chosen (a kind left out is recorded
// as skipped and says why), and a replay shows its own attempt, listed as a replay by whom.
// A real receiver on 127.0.0.1 answers what the test says.
test.describe.configure({ mode: 'serial' });

let receiver: Server;
let answer = 500;
const received: { body: { id: string; type: string }; headers: IncomingHttpHeaders }[] = [];
test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ body: JSON.parse(body), headers: req.headers });
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer === 200 ? 'ok' : 'receiver down');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const port = (receiver.address() as AddressInfo).port;
  await apiOk('PATCH', '/config', { webhookEndpoint: `http://127.0.0.1:${port}/hooks` });
});
test.afterAll(async () => {
  await apiOk('PATCH', '/config', { webhookEndpoint: null });
  receiver?.close();
});

const region = (page: Page, name: string) => page.getByRole('region', { name });

test('a test event sent from the console shows its attempt; its replay shows its own', async ({ page }) => {
  await signInStaff(page);
  await visit(page, '/console/webhooks');
  await expect(region(page, 'Endpoint')).toContainText('/hooks');
  answer = 500;
  await page.getByRole('button', { name: 'Send a test event' }).click();
  const result = page.getByRole('status', { name: 'Test event result' });
  await expect(result).toContainText('HTTP 500');
  await expect(result).toContainText('FAILED');
  await expect(result).toContainText('receiver down');
  const eventId = (await result.locator('.font-mono').first().textContent())!.trim();
  const sent = received.filter((r) => r.body.id === eventId);
  expect(sent).toHaveLength(1);
  expect(sent[0].body.type).toBe('TEST');
  expect(sent[0].headers['x-grid-signature']).toBeTruthy();
  await checkPage(page, 'console-webhooks-test-event');

  answer = 200;
  await result.getByRole('link', { name: 'TEST event' }).click();
  await page.waitForURL(/\/console\/webhooks\/Webhook/);
  const deliveries = region(page, 'Deliveries');
  await expect(deliveries.getByRole('row', { name: /#1/ })).toContainText('test send');
  await page.getByRole('button', { name: 'Replay' }).click();
  const replayed = deliveries.getByRole('status');
  await expect(replayed).toContainText('Replay (attempt #2)');
  await expect(replayed).toContainText('DELIVERED');
  await expect(replayed).toContainText('HTTP 200');
  // The event's own status agrees with the attempt the replay made.
  const state = deliveries.locator('span', { hasText: 'Delivery status' });
  await expect(state).toContainText('DELIVERED');
  await expect(state).toContainText('after 2 attempt(s)');
  const row = deliveries.getByRole('row', { name: /#2/ });
  await expect(row).toContainText(`replay by ${STAFF.email}`);
  await expect(row).toContainText('HTTP 200');
  expect(received.filter((r) => r.body.id === eventId)).toHaveLength(2);
  await expect(region(page, 'Staff actions')).toContainText('Replayed the webhook');
  await checkPage(page, 'console-webhook-replayed');
});

test('event kinds: a kind left out is skipped and says so; every kind again restores the default', async ({ page }) => {
  answer = 200;
  await signInStaff(page);
  await visit(page, '/console/webhooks');
  const kinds = region(page, 'Event kinds sent');
  await expect(kinds).toContainText('Every kind is sent');
  await kinds.getByRole('button', { name: 'Select none' }).click();
  await kinds.getByRole('group', { name: 'CARD', exact: true }).getByLabel('STATE_CHANGE').check();
  await kinds.getByRole('button', { name: 'Save event kinds' }).click();
  await expect(kinds.getByRole('status')).toContainText('Saved: 1 of');
  await expect(kinds).toContainText('INCOMING_PAYMENT.PENDING is not sent');
  await checkPage(page, 'console-webhooks-kinds');

  const address = { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' };
  const customer = await apiOk('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: unique('kinds'),
    fullName: 'Kim Kinds',
    birthDate: '1990-01-15',
    nationality: 'US',
    address,
  });
  await visit(page, `/console/webhooks?type=CUSTOMER.KYC_APPROVED`);
  const row = page.getByRole('row', { name: /CUSTOMER\.KYC_APPROVED/ }).first();
  await expect(row).toContainText('kind not chosen');
  // What the event is about, by name, linked to the customer, the id to copy.
  await expect(row.getByRole('link', { name: 'Kim Kinds' })).toHaveAttribute(
    'href',
    `/console/customers/${encodeURIComponent(customer.id)}`,
  );
  await expect(row.getByRole('button', { name: `Copy id ${customer.id}` })).toBeVisible();
  await row.getByRole('link').first().click();
  await page.waitForURL(/\/console\/webhooks\/Webhook/);
  const skippedPath = new URL(page.url()).pathname;
  await expect(region(page, 'Event')).toContainText('does not receive this kind');
  await expect(region(page, 'Event').getByRole('link', { name: 'Kim Kinds' })).toBeVisible();
  await expect(region(page, 'Event').getByRole('button', { name: `Copy id ${customer.id}` })).toBeVisible();
  await expect(region(page, 'Deliveries')).toContainText('not sent: the endpoint does not receive this kind');
  // Replay would be refused: the control is disabled and says why, before anyone clicks.
  const replay = region(page, 'Deliveries').getByRole('button', { name: 'Replay' });
  await expect(replay).toBeDisabled();
  await expect(replay).toHaveAccessibleDescription(
    'Replay is unavailable: The webhook endpoint does not receive CUSTOMER.KYC_APPROVED events; choose that kind first.',
  );
  await checkPage(page, 'console-webhook-skipped');

  await visit(page, '/console/webhooks');
  await kinds.getByRole('button', { name: 'Select all' }).click();
  await kinds.getByRole('button', { name: 'Save event kinds' }).click();
  await expect(kinds.getByRole('status')).toContainText('every kind is sent');
  await visit(page, '/console/webhooks');
  await expect(kinds).toContainText('Every kind is sent (the default');
  // The kind is sent again: the skipped event can be replayed now.
  await visit(page, skippedPath);
  await expect(region(page, 'Deliveries').getByRole('button', { name: 'Replay' })).toBeEnabled();
});
