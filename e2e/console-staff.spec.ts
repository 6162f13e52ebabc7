import { Secret, TOTP } from 'otpauth';
import { checkPage, expect, signInStaff, test, unique, visit } from './support';

// Staff accounts end to end: an admin invites a member by a one-time link (no password on
// screen), the member opens it in a fresh browser context and sets their own password, turns on
// the TOTP second factor from "Your account" (the code computed here from the secret the page
// shows), then signs out and back in: the password alone opens no session, the code does. The
// link is refused a second time.
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'my-own-password-for-e2e';
/** The code `offset` 30-second steps from now (the server accepts one step either way). */
const codeOf = (secret: string, offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offset * 30_000 });

test('invite a member, accept the link, enrol TOTP, sign in with the code', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const email = `${unique('invited')}@e2e.example`;
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
  await checkPage(member, 'console-account-recovery-codes');

  await member.getByRole('button', { name: 'Sign out' }).click();
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
