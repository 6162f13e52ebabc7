import type { BrowserContext, Page } from '@playwright/test';
import { api, apiOk, checkPage, expect, mxnBankAccount, test, visit, walletCustomer, type Json } from './support';

// The wallet pages in Chromium, as two customers: email-code sign-in (the code sealed in the
// browser), a passkey registered and used through Chrome's virtual authenticator, a payment
// signed in the browser, a credential revoked, the wallet exported, sign-out revoking the wallet
// session; and the second customer's browser session cannot reach the first customer's data.
test.describe.configure({ mode: 'serial' });

/** A device's authenticator holding its own passkeys; `remove` takes the device away. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { remove: () => cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId }) };
}

async function addPasskey(page: Page, name: string) {
  await page.getByLabel('Name of the new passkey').fill(name);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Passkey added' })).toBeVisible();
  // Listed once registered (the status may still show from a passkey added before).
  await expect(page.getByRole('button', { name: `Revoke passkey ${name}` })).toBeVisible();
}

async function signInWithCode(page: Page, email: string) {
  await visit(page, '/wallet');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await page.getByLabel('Code from the email').fill('000000');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('region', { name: 'Balances' })).toBeVisible();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Email me a code' })).toBeVisible();
}

/** Six minutes on, the recovery phrase first asks to confirm it's you: the passkey again, in place. */
async function phraseAfterConfirmingWithPasskey(page: Page) {
  await apiOk('POST', '/sandbox/clock/advance', { seconds: 6 * 60 });
  await page.getByRole('button', { name: 'Show the recovery phrase' }).click();
  const confirm = page.getByRole('region', { name: "Confirm it's you" });
  await expect(confirm).toContainText('The recovery phrase is shown only after a recent sign-in.');
  await expect(page.getByLabel('Recovery phrase')).toHaveCount(0);
  await checkPage(page, 'wallet-confirm-passkey');
  await confirm.getByRole('button', { name: 'Confirm with my passkey' }).click();
  await expect(page.getByLabel('Recovery phrase')).toHaveText(/^(\w+ ){23}\w+$/);
  await expect(confirm).toHaveCount(0);
}

const sessionsOf = async (accountId: string) =>
  (await apiOk('GET', `/auth/sessions?accountId=${encodeURIComponent(accountId)}`)).data as Json[];

/**
 * Signed out with the passkey on this device, the email field's autofill offers it (WebAuthn
 * conditional UI, no email typed); Chrome's virtual authenticator answers such a request at once,
 * as a person picking the passkey would: a new passkey session replaces the one signed out.
 */
async function autofillSignIn(page: Page) {
  const before = (await sessionsOf(alice.walletId)).map((s) => s.id);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect
    .poll(async () =>
      (await sessionsOf(alice.walletId)).map((s) => `${s.type} ${before.includes(s.id) ? 'old' : 'new'}`),
    )
    .toEqual(['PASSKEY new']);
  await expect(page.getByRole('region', { name: 'Balances' })).toBeVisible();
  await expect(page.getByText(alice.email, { exact: true })).toBeVisible();
}

/** From here on this page reports no conditional mediation, as browsers without it do: the button only. */
async function passkeyButtonOnly(page: Page) {
  await page.addInitScript(() =>
    Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', { value: async () => false }),
  );
  await page.reload();
  await expect(page.getByRole('region', { name: 'Balances' })).toBeVisible();
}

const activeSessions = async (accountId: string) =>
  ((await apiOk('GET', `/auth/sessions?accountId=${encodeURIComponent(accountId)}`)).data as Json[]).length;

let alice: Awaited<ReturnType<typeof walletCustomer>>;
let aliceQuoteId = '';
let alicePasskeyId = '';
let aliceCard: Json = {};

test('email-code sign-in, a passkey added and used, a signed payment, revoke, export, sign-out', async ({ page }) => {
  alice = await walletCustomer('Alice Wallet');
  await apiOk('POST', `/sandbox/internal-accounts/${alice.walletId}/fund`, { amount: 25_000 });
  const bank = await mxnBankAccount(alice.id);
  await virtualAuthenticator(page);
  // A card the platform issued to Alice, funded by her USD account: the wallet lists it.
  const accounts = (await apiOk('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(alice.id)}`))
    .data as Json[];
  const usd = accounts.find((a) => a.type !== 'EMBEDDED_WALLET' && a.balance.currency.code === 'USD');
  aliceCard = await apiOk('POST', '/cards', { cardholderId: alice.id, form: 'VIRTUAL', fundingSources: [usd.id] });

  await visit(page, '/wallet');
  await checkPage(page, 'wallet-sign-in');
  await signInWithCode(page, alice.email);
  await expect(page.getByText('250.00 USD')).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Cards' }).getByText(new RegExp(`•••• ${aliceCard.last4}$`)),
  ).toBeVisible();
  // The session key never left the browser: it is a non-extractable key in IndexedDB.
  const extractable = await page.evaluate(
    () =>
      new Promise<boolean>((resolve, reject) => {
        const req = indexedDB.open('corridor-wallet', 1);
        req.onsuccess = () => {
          const get = req.result.transaction('keys').objectStore('keys').get('session');
          get.onsuccess = () => resolve(get.result.pair.privateKey.extractable);
          get.onerror = () => reject(get.error);
        };
      }),
  );
  expect(extractable).toBe(false);
  expect(await activeSessions(alice.walletId)).toBe(1);

  await addPasskey(page, 'Test laptop');
  const creds = (await apiOk('GET', `/auth/credentials?accountId=${encodeURIComponent(alice.walletId)}`))
    .data as Json[];
  const passkey = creds.find((c) => c.type === 'PASSKEY');
  expect(passkey?.nickname).toBe('Test laptop');
  alicePasskeyId = passkey.id;
  await checkPage(page, 'wallet-home');
  await autofillSignIn(page);
  await passkeyButtonOnly(page);
  await signOut(page);
  expect(await activeSessions(alice.walletId)).toBe(0);

  await expect(page.getByLabel('Email')).toHaveValue('');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('region', { name: 'Balances' })).toBeVisible();
  await expect(page.getByText(alice.email, { exact: true })).toBeVisible();
  await page.getByLabel('Send to').selectOption(bank.id);
  await page.getByLabel('Amount (USD)').fill('12.34');
  await page.getByRole('button', { name: 'Get a quote' }).click();
  await expect(page.getByText('Review the payment')).toBeVisible();
  await page.getByRole('button', { name: 'Confirm and send' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sent.' })).toBeVisible();
  const txs = (await apiOk('GET', `/transactions?customerId=${encodeURIComponent(alice.id)}`)).data as Json[];
  const payment = txs.find((t) => t.type === 'OUTGOING');
  expect(payment?.sentAmount.amount).toBe(1234);
  aliceQuoteId = payment.quoteId;
  const wallet = await apiOk(
    'GET',
    `/customers/internal-accounts?customerId=${encodeURIComponent(alice.id)}&type=EMBEDDED_WALLET`,
  );
  expect(wallet.data[0].balance.amount).toBeLessThan(25_000 - 1234 + 1);

  await phraseAfterConfirmingWithPasskey(page);
  // The session it replaced ended: one session, this browser's.
  expect(await activeSessions(alice.walletId)).toBe(1);
  await signOut(page);

  // Signed in with the email code again (a new code may be sent 30 s after the last: the sandbox
  // clock moves on), the passkey is revoked (a session of another credential signs).
  await apiOk('POST', '/sandbox/clock/advance', { seconds: 31 });
  await signInWithCode(page, alice.email);
  await page.getByRole('button', { name: 'Revoke passkey Test laptop' }).click();
  await expect(page.getByRole('button', { name: 'Revoke passkey Test laptop' })).toHaveCount(0);
  const after = (await apiOk('GET', `/auth/credentials?accountId=${encodeURIComponent(alice.walletId)}`))
    .data as Json[];
  expect(after.map((c) => c.type)).toEqual(['EMAIL_OTP']);

  await page.getByRole('button', { name: 'Show the recovery phrase' }).click();
  await expect(page.getByLabel('Recovery phrase')).toHaveText(/^(\w+ ){23}\w+$/);
  await signOut(page);
  expect(await activeSessions(alice.walletId)).toBe(0);
});

test("a second customer's wallet session cannot reach the first customer's data", async ({ browser }) => {
  const bob = await walletCustomer('Bob Wallet');
  const context: BrowserContext = await browser.newContext();
  const page = await context.newPage();
  try {
    await signInWithCode(page, bob.email);
    const me = await page.request.get('/wallet/api/me');
    expect((await me.json()).customer.id).toBe(bob.id);
    // Bob's cards are his: Alice's card is not among them.
    const cards = await page.request.get('/wallet/api/cards');
    expect(cards.status()).toBe(200);
    expect(((await cards.json()).data as Json[]).map((c) => c.id)).not.toContain(aliceCard.id);
    const origin = { origin: new URL(page.url()).origin, 'content-type': 'application/json' };
    // Alice's quote, credential and transactions are not Bob's to touch or read.
    const execute = await page.request.post(`/wallet/api/quotes/${encodeURIComponent(aliceQuoteId)}/execute`, {
      headers: origin,
      data: {},
    });
    expect(execute.status()).toBe(404);
    const revoke = await page.request.delete(`/wallet/api/credentials/${encodeURIComponent(alicePasskeyId)}`, {
      headers: origin,
      data: {},
    });
    expect(revoke.status()).toBe(404);
    const txs = await (await page.request.get('/wallet/api/transactions')).json();
    expect(txs.data.every((t: Json) => t.customerId === bob.id)).toBe(true);
    // A request from another site is refused before anything else.
    const forged = await page.request.post('/wallet/api/sign-out', {
      headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
      data: {},
    });
    expect(forged.status()).toBe(403);
    expect(await activeSessions(bob.walletId)).toBe(1);
    // The wallet cookie is HttpOnly and SameSite=Strict.
    const cookie = (await context.cookies()).find((c) => c.name === 'corridor_wallet')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
    await signOut(page);
    expect(await api('GET', '/customers/' + bob.id).then((r) => r.status)).toBe(200);
  } finally {
    await context.close();
  }
});

test('signed in by email, a wallet with two passkeys answers with the second (the first is on another device)', async ({
  page,
}) => {
  const carol = await walletCustomer('Carol Wallet');
  const laptop = await virtualAuthenticator(page);
  await signInWithCode(page, carol.email);
  await addPasskey(page, 'Laptop');
  // The laptop goes away with its passkey; the phone registers the wallet's second.
  await laptop.remove();
  await virtualAuthenticator(page);
  await addPasskey(page, 'Phone');
  const creds = (await apiOk('GET', `/auth/credentials?accountId=${encodeURIComponent(carol.walletId)}`))
    .data as Json[];
  const passkeys = creds.filter((c) => c.type === 'PASSKEY');
  expect(passkeys.map((c) => c.nickname)).toEqual(['Laptop', 'Phone']);

  // Button only (the autofill would sign in with the phone's passkey at once, naming no email).
  await passkeyButtonOnly(page);
  await signOut(page);
  expect(await activeSessions(carol.walletId)).toBe(0);
  await page.getByLabel('Email').fill(carol.email);
  await checkPage(page, 'wallet-sign-in-email-typed');
  const started = page.waitForResponse((r) => r.url().endsWith('/wallet/api/sign-in/start'));
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  const start = await started;
  // The start is the email's: it lists both of the wallet's passkeys, and the phone's answers.
  expect(start.request().postDataJSON()).toMatchObject({ email: carol.email, method: 'PASSKEY' });
  expect((await start.json()).allowCredentials).toEqual(passkeys.map((c) => c.credentialId));
  await expect(page.getByRole('region', { name: 'Balances' })).toBeVisible();
  await expect(page.getByText(carol.email, { exact: true })).toBeVisible();
  const sessions = await sessionsOf(carol.walletId);
  expect(sessions.map((x) => [x.type, x.nickname])).toEqual([['PASSKEY', 'Phone']]);
  await signOut(page);
});
