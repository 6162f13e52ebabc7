import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from '@playwright/test';
import { checkPage, expect, signInStaff, test, unique, visit } from './support';

// Staff accounts end to end: an admin invites a member by a one-time link (no password on
// screen), the member opens it in a fresh browser context and sets their own password, turns on
// the TOTP second factor from "Your account" (the code computed here from the secret the page
// shows), then signs out and back in: the password alone opens no session, the code does. The
// link is refused a second time.
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'my-own-password-for-e2e';
const NEW_PASSWORD = 'my-changed-password-for-e2e';
// The member of the first test, for the second (serial): email, TOTP secret, recovery codes.
const memberOf = { email: '', secret: '', codes: [] as string[], lastStep: 0 };
/** The code `offset` 30-second steps from now (the server accepts one step either way). */
const codeOf = (secret: string, offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offset * 30_000 });

const stepNow = () => Math.floor(Date.now() / 30_000);

/** A TOTP code of a step later than any used so far (waits for the clock when it must). */
async function freshCode(page: Page): Promise<string> {
  while (stepNow() + 1 <= memberOf.lastStep) await page.waitForTimeout(1000);
  memberOf.lastStep = stepNow() + 1;
  return codeOf(memberOf.secret, 1);
}

/** Signs the member in (password, then a recovery code) in a browser context of its own. */
async function signInMember(browser: Browser, password: string, recovery: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInStaff(page, memberOf.email, password, false);
  await page.getByLabel('Code').fill(recovery);
  await page.getByRole('button', { name: 'Verify code' }).click();
  await page.waitForURL(/\/console$/);
  return page;
}

/** The page's session is refused: a console page sends it to sign-in. */
async function signedOut(page: Page) {
  await visit(page, '/console');
  await expect(page).toHaveURL(/\/console\/sign-in/);
}

async function stillSignedIn(page: Page) {
  await visit(page, '/console');
  await expect(page).toHaveURL(/\/console$/);
}

test('invite a member, accept the link, enrol TOTP, sign in with the code', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const email = `${unique('invited')}@e2e.example`;
  memberOf.email = email;
  await signInStaff(page);
  await visit(page, '/console/staff');
  await page.getByLabel('Email').fill(email);
  await page.locator('#staff-role').selectOption('operator');
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = (await page.getByTestId('invitation-link').textContent())!;
  expect(link).toMatch(/\/console\/invite\/[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole('table', { name: 'Pending invitations' })).toContainText(email);
  await checkPage(page, 'console-staff-invited');

  const context = await browser.newContext();
  const member = await context.newPage();
  await visit(member, new URL(link).pathname);
  await expect(member.getByText(email)).toBeVisible();
  await checkPage(member, 'console-invitation');
  await member.getByLabel('New password').fill(PASSWORD);
  await member.getByLabel('Password again').fill(PASSWORD);
  await member.getByRole('button', { name: 'Create my account' }).click();
  await member.waitForURL(/\/console\/sign-in\?invited=1$/);
  await signInStaff(member, email, PASSWORD);

  await visit(member, '/console/account');
  await member.getByRole('button', { name: 'Set up the second factor' }).click();
  const secret = (await member.getByTestId('totp-secret').textContent())!.trim();
  await expect(member.getByRole('img', { name: /QR code/ })).toBeVisible();
  await checkPage(member, 'console-account-enrol');
  await member.getByLabel('The code the app shows now').fill(codeOf(secret));
  await member.getByRole('button', { name: 'Turn on' }).click();
  await expect(member.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  Object.assign(memberOf, {
    secret,
    codes: await member.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents(),
  });
  await checkPage(member, 'console-account-recovery-codes');

  await member.getByRole('button', { name: 'Sign out', exact: true }).click();
  await member.waitForURL(/\/console\/sign-in/);
  await signInStaff(member, email, PASSWORD, false);
  await expect(member.getByLabel('Code')).toBeVisible();
  await checkPage(member, 'console-sign-in-code');
  // No session yet: the console still sends this browser to the sign-in page.
  await visit(member, '/console');
  await expect(member).toHaveURL(/\/console\/sign-in/);
  await signInStaff(member, email, PASSWORD, false);
  await member.getByLabel('Code').fill('000000');
  await member.getByRole('button', { name: 'Verify code' }).click();
  await expect(member.getByRole('alert').filter({ hasText: 'Wrong or already used code' })).toBeVisible();
  await member.getByLabel('Code').fill(codeOf(secret, 1));
  memberOf.lastStep = stepNow() + 1;
  await member.getByRole('button', { name: 'Verify code' }).click();
  await member.waitForURL(/\/console$/);
  await visit(member, '/console/account');
  await expect(member.getByText('On: signing in asks for a code')).toBeVisible();

  // The link was used: opening it again says so and offers no form.
  await visit(member, new URL(link).pathname);
  await expect(member.getByRole('alert').filter({ hasText: 'not valid' })).toBeVisible();
  await context.close();

  await visit(page, '/console/staff');
  await expect(page.getByText(email, { exact: true })).toHaveCount(1); // in Staff members, no longer pending
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText('on');
});

test('password change, new recovery codes, sign out everywhere; a role change, a factor reset and a disabling end sessions', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const codes = memberOf.codes;
  const here = await signInMember(browser, PASSWORD, codes[0]!);
  const there = await signInMember(browser, PASSWORD, codes[1]!);

  // Password change: the current password and a current code; this session stays, the other ends.
  await visit(here, '/console/account');
  const form = here.getByRole('region', { name: 'Password' });
  await form.getByLabel('Current password').fill('not-my-password-at-all');
  await form.getByLabel('Code of your authenticator app').fill(codeOf(memberOf.secret));
  await form.getByLabel('New password (12 characters or more)').fill(NEW_PASSWORD);
  await form.getByLabel('New password again').fill(NEW_PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('alert')).toContainText('not your current password');
  await form.getByLabel('Current password').fill(PASSWORD);
  await form.getByLabel('Code of your authenticator app').fill(await freshCode(here));
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('status')).toContainText('Password changed');
  await checkPage(here, 'console-account-password-changed');
  await stillSignedIn(here);
  await signedOut(there);

  // New recovery codes (a current TOTP code): shown once; an old one no longer signs in.
  await visit(here, '/console/account');
  const factor = here.getByRole('region', { name: 'Second factor' });
  await factor
    .getByLabel('A current code of your authenticator app to get new recovery codes')
    .fill(await freshCode(here));
  await factor.getByRole('button', { name: 'New recovery codes' }).click();
  const fresh = factor.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(fresh).toHaveCount(10);
  const newCodes = await fresh.allTextContents();
  expect(newCodes.some((c) => codes.includes(c))).toBe(false);
  await checkPage(here, 'console-account-new-recovery-codes');
  await signInStaff(there, memberOf.email, NEW_PASSWORD, false);
  await there.getByLabel('Code').fill(codes[2]!);
  await there.getByRole('button', { name: 'Verify code' }).click();
  await expect(there.getByRole('alert').filter({ hasText: 'Wrong or already used code' })).toBeVisible();
  await there.getByLabel('Code').fill(newCodes[0]!);
  await there.getByRole('button', { name: 'Verify code' }).click();
  await there.waitForURL(/\/console$/);

  // Sign out everywhere: this browser goes to sign-in, and the other session is refused too.
  await visit(here, '/console/account');
  await checkPage(here, 'console-account-sessions');
  here.once('dialog', (d) => void d.accept());
  await here.getByRole('button', { name: 'Sign out everywhere' }).click();
  await here.waitForURL(/\/console\/sign-in/);
  await signedOut(here);
  await signedOut(there);

  // An admin's changes end the member's sessions: a role change, a factor reset, a disabling.
  await signInStaff(page);
  const row = () => page.getByRole('row').filter({ hasText: memberOf.email });
  let member = await signInMember(browser, NEW_PASSWORD, newCodes[1]!);
  await visit(page, '/console/staff');
  await row().getByLabel(`Role of ${memberOf.email}`).selectOption('viewer');
  await expect.poll(async () => (await staffRole(member)) ?? 'signed out').toBe('signed out');

  member = await signInMember(browser, NEW_PASSWORD, newCodes[2]!);
  await visit(page, '/console/staff');
  page.once('dialog', (d) => void d.accept());
  await row().getByRole('button', { name: 'Reset' }).click();
  await expect(row()).toContainText('off');
  await signedOut(member);

  const context = await browser.newContext();
  member = await context.newPage();
  await signInStaff(member, memberOf.email, NEW_PASSWORD); // the factor is off now: the password alone
  await visit(page, '/console/staff');
  await row().getByRole('button', { name: 'Disable' }).click();
  await expect(row()).toContainText('DISABLED');
  await signedOut(member);
  await row().getByRole('button', { name: 'Enable' }).click();
  await expect(row()).toContainText('ACTIVE');
  await signedOut(member); // enabling again does not bring the old session back

  // Every one of these is in the audit log, under the member's email or the admin's.
  await visit(page, `/console/audit?actor=${encodeURIComponent(memberOf.email)}`);
  for (const action of [
    'Changed their password',
    'Password change refused',
    'Generated new recovery codes',
    'Signed out everywhere',
  ])
    await expect(page.getByRole('main')).toContainText(action);
});

/** The role the member's page shows on "Your account", or null when the session was refused. */
async function staffRole(page: Page): Promise<string | null> {
  await visit(page, '/console/account');
  if (/\/console\/sign-in/.test(page.url())) return null;
  return page.getByRole('region', { name: 'Account' }).innerText();
}
