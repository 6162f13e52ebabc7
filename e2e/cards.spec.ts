import { apiOk, checkPage, expect, signInStaff, test, unique, visit, type Json } from './support';

// Cards in the console, in Chromium: a card issued through the API (provisioned by the worker)
// with an authorization on it, the cards list, then frozen and unfrozen from the card's page —
// each change seen through the API and recorded in the card's staff actions; the pages checked
// (headers, axe, screenshots at 1280 and 390 px).
test.describe.configure({ mode: 'serial' });

async function activeCard() {
  const customer = await apiOk('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: unique('cardholder'),
    fullName: 'Ada Cardholder',
    currencies: ['USD'],
  });
  const accounts = await apiOk('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`);
  const usd = (accounts.data as Json[]).find((a) => a.type === 'INTERNAL_FIAT' && a.balance.currency.code === 'USD');
  await apiOk('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { amount: 50_000 });
  const card = await apiOk('POST', '/cards', {
    cardholderId: customer.id,
    platformCardId: unique('card'),
    form: 'VIRTUAL',
    fundingSources: [usd.id],
    maxSpendPerTransaction: 20_000,
  });
  await expect.poll(async () => (await apiOk('GET', `/cards/${card.id}`)).state, { timeout: 20_000 }).toBe('ACTIVE');
  await apiOk('POST', `/sandbox/cards/${encodeURIComponent(card.id)}/simulate/authorization`, {
    amount: 1250,
    currency: { code: 'USD' },
    merchant: { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' },
  });
  return { customer, card };
}

test('freeze and unfreeze a card in the console (seen through the API, recorded on the card)', async ({ page }) => {
  const { customer, card } = await activeCard();
  await signInStaff(page);
  await visit(page, '/console/cards');
  await expect(page.getByRole('heading', { name: 'Cards' })).toBeVisible();
  await expect(page.getByText(card.platformCardId)).toBeVisible();
  await checkPage(page, 'console-cards');

  await visit(page, `/console/cards/${encodeURIComponent(card.id)}`);
  const details = page.getByRole('region', { name: 'Card', exact: true });
  await expect(details.getByText('ACTIVE')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Card transactions' }).getByText('AUTHORIZED')).toBeVisible();
  await checkPage(page, 'console-card');

  await page.getByRole('button', { name: 'Freeze' }).click();
  await expect(details.getByText('FROZEN')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unfreeze' })).toBeVisible();
  expect((await apiOk('GET', `/cards/${card.id}`)).state).toBe('FROZEN');
  await checkPage(page, 'console-card-frozen');

  await page.getByRole('button', { name: 'Unfreeze' }).click();
  await expect(details.getByText('ACTIVE')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Freeze' })).toBeVisible();
  expect((await apiOk('GET', `/cards/${card.id}`)).state).toBe('ACTIVE');
  const staffActions = page.getByRole('region', { name: 'Staff actions' });
  await expect(staffActions.getByRole('listitem')).toHaveCount(2);
  await expect(staffActions).toContainText('Froze the card');
  await expect(staffActions).toContainText('Unfroze the card');

  // The card also shows on its holder's page.
  await visit(page, `/console/customers/${encodeURIComponent(customer.id)}`);
  await expect(page.getByRole('region', { name: 'Cards' }).getByText(card.platformCardId)).toBeVisible();
});
