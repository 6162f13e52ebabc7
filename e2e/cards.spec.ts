import { apiOk, checkPage, expect, signInStaff, test, visit } from './support';
import { cardWithPurchase } from './live-data';

// Cards in the console, in Chromium: a card issued through the API (provisioned by the worker)
// with an authorization on it, the cards list, then frozen and unfrozen from the card's page —
// each change seen through the API and recorded in the card's staff actions; the pages checked
// (headers, axe, screenshots at 1280 and 390 px).
test.describe.configure({ mode: 'serial' });

test('freeze and unfreeze a card in the console (seen through the API, recorded on the card)', async ({ page }) => {
  const { holder: customer, card } = await cardWithPurchase('Ada Cardholder');
  await signInStaff(page);
  await visit(page, '/console/cards');
  await expect(page.getByRole('heading', { name: 'Cards' })).toBeVisible();
  await expect(page.getByText(card.platformCardId)).toBeVisible();
  // The cardholder by name, linked to their page, the id one click away to copy (not shown whole).
  const row = page.getByRole('row').filter({ hasText: card.platformCardId });
  await expect(row.getByRole('link', { name: 'Ada Cardholder' })).toHaveAttribute(
    'href',
    `/console/customers/${encodeURIComponent(customer.id)}`,
  );
  await expect(row.getByRole('button', { name: `Copy id ${customer.id}` })).toBeVisible();
  await expect(row).not.toContainText(customer.id);
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
