// The console's list pages in the list bench (`npm run bench -- --lists`): a staff user signs in
// once in Chromium (the sign-in is a server action, as for a person), then each page is timed
// with that session's cookie, like the API's lists. The staff account is made or reset at server
// start from CORRIDOR_STAFF_EMAIL / CORRIDOR_STAFF_PASSWORD (lib/staff/bootstrap.ts).
import { chromium } from '@playwright/test';

export const STAFF_ENV = {
  CORRIDOR_STAFF_EMAIL: 'bench-staff@bench.local',
  CORRIDOR_STAFF_PASSWORD: 'bench-staff-password-0123456789',
};

/** `name=value` of a signed-in staff session on the server at `base`. */
export async function staffCookie(base) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/console/sign-in`);
    await page.getByLabel('Email').fill(STAFF_ENV.CORRIDOR_STAFF_EMAIL);
    await page.getByLabel('Password').fill(STAFF_ENV.CORRIDOR_STAFF_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console$/, { timeout: 120_000 });
    const cookie = (await page.context().cookies()).find((c) => c.name.endsWith('corridor_staff'));
    if (!cookie) throw new Error('no staff session cookie after sign-in');
    return `${cookie.name}=${cookie.value}`;
  } finally {
    await browser.close();
  }
}

/** The console pages timed, with filter values sampled from the database (`s`, bench-lists.mjs). */
export function consolePages(s) {
  const q = encodeURIComponent;
  return [
    ['console: overview', '/console'],
    ['console: approvals', '/console/approvals'],
    ['console: customers', '/console/customers'],
    ['console: customers, KYC status', '/console/customers?status=APPROVED'],
    ['console: customers, search by id', `/console/customers?q=${q(s.cust.id)}`],
    ['console: transactions', '/console/transactions'],
    ['console: transactions, status', '/console/transactions?status=COMPLETED'],
    ['console: transactions, customer', `/console/transactions?customerId=${q(s.t.customerId)}`],
    ['console: agents', '/console/agents'],
    ['console: a customer', `/console/customers/${q(s.cust.id)}`],
  ];
}
