import { apiOk, checkPage, expect, signInStaff, test, unique, usBankAccount, visit } from './support';

// A customer's page names their accounts (issue 26, point 3): internal accounts by currency and
// kind, external accounts by holder, bank and country — each id one click away to copy — at 1280
// and 390 px (checkPage: headers, axe, no sideways scroll, screenshots).
test("names a customer's internal and external accounts, ids copyable", async ({ page }) => {
  const customer = await apiOk('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: unique('named-accounts'),
    fullName: 'Katherine Johnson',
    currencies: ['USD'],
  });
  const bank = await usBankAccount(customer.id);
  const internal = await apiOk(
    'GET',
    `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&type=INTERNAL_FIAT`,
  );
  expect(internal.data.length).toBeGreaterThan(0);
  await signInStaff(page);
  await visit(page, `/console/customers/${encodeURIComponent(customer.id)}`);
  await expect(page.getByRole('heading', { name: 'Katherine Johnson', exact: true })).toBeVisible();

  const internalTable = page.getByRole('table', { name: 'Internal accounts' });
  const usd = internalTable
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `Copy id ${internal.data[0].id}` }) });
  await expect(usd).toContainText('USD account');
  const externalTable = page.getByRole('table', { name: 'External accounts' });
  const payee = externalTable
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `Copy id ${bank.id}` }) });
  await expect(payee).toContainText('Ada Lovelace (Chase Bank, US)');
  await checkPage(page, 'console-customer-accounts');
});
