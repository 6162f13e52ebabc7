import {
  apiOk,
  BASE,
  checkPage,
  expect,
  mxnBankAccount,
  signInToWallet,
  test,
  visit,
  walletCustomer,
  type Json,
} from './support';

// Issue 27 in Chromium, what the holder manages: receive details (UMA address with its QR code,
// each account's bank-transfer instructions, every value copyable), another device signed out
// from here (its next action goes back to sign-in), the code sent again once its countdown ends,
// and the sign-in's note on an IP address, where passkeys do not work. checkPage also holds each
// page to no sideways scrolling at 390 px.
test.describe.configure({ mode: 'serial' });

let holder: Awaited<ReturnType<typeof walletCustomer>>;
let bank: Json;

test.beforeAll(async () => {
  holder = await walletCustomer('Manny Manage');
  await apiOk('POST', `/sandbox/internal-accounts/${holder.walletId}/fund`, { amount: 10_000 });
  bank = await mxnBankAccount(holder.id);
});

const sessionsOf = async () =>
  (await apiOk('GET', `/auth/sessions?accountId=${encodeURIComponent(holder.walletId)}`)).data as Json[];

test('receive details with a QR code and copy buttons; the devices signed in', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInToWallet(page, holder.email);
  const receive = page.getByRole('region', { name: 'Receive money' });
  const customer = await apiOk('GET', `/customers/${encodeURIComponent(holder.id)}`);
  await expect(receive.getByText(customer.umaAddress, { exact: true })).toBeVisible();
  await expect(receive.getByRole('img', { name: `QR code of ${customer.umaAddress}` }).locator('svg')).toBeVisible();
  await receive.getByRole('button', { name: 'Copy UMA address' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(customer.umaAddress);
  await expect(receive.getByRole('button', { name: 'Copy UMA address' })).toHaveText('Copied');
  // The USD account's bank-transfer instructions, as the API gives them, each one copyable.
  const listed = await apiOk('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(holder.id)}`);
  const usd = (listed.data as Json[]).find((a) => a.type !== 'EMBEDDED_WALLET' && a.balance.currency.code === 'USD');
  const info = usd.fundingPaymentInstructions[0].accountOrWalletInfo;
  const bankTransfer = receive.getByRole('region', { name: 'Bank transfer to your USD account' });
  const fields = { accountNumber: 'Account number', routingNumber: 'Routing number', reference: 'Reference' };
  for (const [field, label] of Object.entries(fields)) {
    expect(typeof info[field], `${field} of ${JSON.stringify(info)}`).toBe('string');
    await expect(bankTransfer.getByText(info[field], { exact: true })).toBeVisible();
    await bankTransfer.getByRole('button', { name: new RegExp(`^Copy ${label}`) }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(info[field]);
  }
  const devices = page.getByRole('list', { name: 'Devices signed in' });
  await expect(devices).toContainText('This browser');
  await checkPage(page, 'wallet-receive');
});

test('another device signed in as the holder is signed out from here; its next action returns to sign-in', async ({
  page,
  browser,
}) => {
  await signInToWallet(page, holder.email);
  const before = (await sessionsOf()).map((x) => x.id);
  const other = await browser.newContext();
  try {
    const phone = await other.newPage();
    await signInToWallet(phone, holder.email);
    await phone.getByLabel('Send to').selectOption(bank.id);
    await phone.getByLabel('Amount (USD)').fill('1.25');
    const phoneSession = (await sessionsOf()).find((x) => !before.includes(x.id));
    await page.reload();
    const devices = page.getByRole('list', { name: 'Devices signed in' });
    await expect(devices.getByRole('listitem')).toHaveCount(before.length + 1);
    await expect(devices.getByRole('listitem').filter({ hasText: 'This browser' })).toHaveCount(1);
    // The phone's row (each other device is named by when it signed in).
    const at = new Date(phoneSession.createdAt).toISOString();
    await devices.getByRole('button', { name: `Sign out the device signed in at ${at}` }).click();
    await expect(devices.getByRole('listitem')).toHaveCount(before.length);
    expect((await sessionsOf()).map((x) => x.id).sort()).toEqual([...before].sort());
    // The phone still shows its page; its next action learns the session is gone: back to sign-in,
    // nothing of the wallet on screen, the email and the payment being typed kept.
    await phone.getByRole('button', { name: 'Get a quote' }).click();
    await expect(phone.getByText('Your session ended.')).toBeVisible();
    await expect(phone.getByRole('region', { name: 'Balances' })).toHaveCount(0);
    await expect(phone.getByLabel('Email')).toHaveValue(holder.email);
    await expect(page.getByRole('region', { name: 'Balances' })).toBeVisible();
  } finally {
    await other.close();
  }
});

test('the code is sent again once the countdown ends, and the new code signs in', async ({ page }) => {
  // The page's clock (the countdown) and the sandbox's (the service's 30 s throttle) both move on.
  await page.clock.install();
  await apiOk('POST', '/sandbox/clock/advance', { seconds: 31 });
  await visit(page, '/wallet');
  await checkPage(page, 'wallet-signed-out');
  await page.getByLabel('Email').fill(holder.email);
  const first = page.waitForResponse((r) => r.url().endsWith('/wallet/api/sign-in/start'));
  await page.getByRole('button', { name: 'Email me a code' }).click();
  const sent = (await (await first).json()).otpEncryptionTargetBundle;
  const resend = page.getByRole('button', { name: /^Send a new code/ });
  await expect(resend).toHaveText(/^Send a new code in (29|30) s$/);
  await expect(resend).toBeDisabled();
  await page.clock.fastForward(10_000);
  await expect(resend).toHaveText(/^Send a new code in (19|20) s$/);
  await apiOk('POST', '/sandbox/clock/advance', { seconds: 31 });
  await page.clock.fastForward(21_000);
  await expect(resend).toHaveText('Send a new code');
  await expect(resend).toBeEnabled();
  const again = page.waitForResponse((r) => r.url().endsWith('/wallet/api/sign-in/start'));
  await resend.click();
  const answer = await again;
  expect(answer.status()).toBe(200);
  // A new code (sealed to a new key) and the countdown starts over.
  expect((await answer.json()).otpEncryptionTargetBundle).not.toBe(sent);
  await expect(resend).toHaveText(/^Send a new code in (29|30) s$/);
  await page.getByLabel('Code from the email').fill('000000');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Balances' })).toBeVisible();
});

test('opened on 127.0.0.1, the sign-in says passkeys need the host name; on that name it does not', async ({
  page,
}) => {
  const note = page.getByText(/^Passkeys do not work on an IP address/);
  await visit(page, '/wallet');
  await expect(page.getByRole('button', { name: 'Email me a code' })).toBeVisible();
  await expect(note).toHaveCount(0);
  const url = new URL(BASE);
  await visit(page, `http://127.0.0.1:${url.port}/wallet`);
  await expect(note).toContainText('Passkeys do not work on an IP address such as 127.0.0.1');
  await expect(note).toContainText(`http://localhost:${url.port}`);
  await checkPage(page, 'wallet-sign-in-ip-address');
});
