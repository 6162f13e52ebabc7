import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page, type Response } from '@playwright/test';
import { deflateSync } from 'node:zlib';

// What the browser specs share: the server's API with the platform's credentials, a page that
// fails its test on any console error, and the check every page gets (security headers, axe,
// screenshots at 1280 and 390 pixels). Screenshots go to E2E_SCREENSHOT_DIR, which
// e2e/browser.e2e.mjs points at an ignored folder (the run's own under test-results/); only
// `npm run screenshots` writes the committed e2e/screenshots/, so a test run changes no tracked file.
export const BASE = process.env.E2E_BASE_URL!;
export const STAFF = { email: process.env.E2E_STAFF_EMAIL!, password: process.env.E2E_STAFF_PASSWORD! };
const SCREENSHOTS = process.env.E2E_SCREENSHOT_DIR || 'test-results/screenshots';
const auth = `Basic ${Buffer.from(`${process.env.E2E_CLIENT_ID}:${process.env.E2E_CLIENT_SECRET}`).toString('base64')}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies are read by field in the specs
export type Json = any;

export async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${BASE}/api/2025-10-13${path}`, {
    method,
    headers: {
      authorization: auth,
      ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Json, text };
}

export async function apiOk(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
  const r = await api(method, path, body, headers);
  expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
  return r.body;
}

/** A page that records console errors and uncaught exceptions; the test fails if there were any. */
export const test = base.extend<{ errors: string[] }>({
  errors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      context.on('console', (m) => {
        if (m.type() === 'error') errors.push(`${m.page()?.url()}: ${m.text()}`);
      });
      context.on('weberror', (e) => errors.push(`uncaught: ${e.error().message}`));
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

export function checkHeaders(res: Response | null) {
  expect(res, 'a document response').not.toBeNull();
  const h = res!.headers();
  const csp = h['content-security-policy'] ?? '';
  const script = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
  expect(script).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}'/);
  expect(script).not.toContain('unsafe-inline');
  expect(script).not.toContain('unsafe-eval');
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("connect-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(h['x-frame-options']).toBe('DENY');
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['referrer-policy']).toBe('same-origin');
}

/** Goes to a page and checks its response headers. */
export async function visit(page: Page, path: string) {
  const res = await page.goto(path);
  checkHeaders(res);
  expect(res!.status(), `${path} answered`).toBeLessThan(400);
  return res!;
}

/**
 * axe-core with no serious or critical violation, then screenshots at both widths (a console page
 * also no wider than 390 px at 390 px). `include`
 * limits axe to some regions, for a page whose whole DOM is too large for axe to walk in time.
 */
export async function checkPage(page: Page, name: string, opts: { fullPage?: boolean; include?: string[] } = {}) {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.waitForTimeout(150);
    // axe at both widths: the phone layout (stacked tables, the menu) is markup of its own.
    let axe = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
    for (const selector of opts.include ?? []) axe = axe.include(selector);
    const results = await axe.analyze();
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `axe on ${name} at ${width} px`,
    ).toEqual([]);
    // No page scrolls sideways on a phone (issues 26 and 27): checked on every page checked.
    if (width === 390)
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at 390 px`).toBeLessThanOrEqual(
        390,
      );
    await page.screenshot({ path: `${SCREENSHOTS}/${name}-${width}.png`, fullPage: opts.fullPage ?? true });
  }
  await page.setViewportSize(size);
}

export async function signInStaff(page: Page, email = STAFF.email, password = STAFF.password, expectSuccess = true) {
  await visit(page, '/console/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (expectSuccess) await page.waitForURL(/\/console$/);
}

/** Email-code sign-in to the wallet as a person does it (the sandbox code), with the resend countdown seen. */
export async function signInToWallet(page: Page, email: string) {
  // A new code may be sent 30 s after the last (the sandbox clock moves on instead of waiting).
  await apiOk('POST', '/sandbox/clock/advance', { seconds: 31 });
  await visit(page, '/wallet');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await expect(page.getByRole('button', { name: /Send a new code in \d+ s/ })).toBeDisabled();
  await page.getByLabel('Code from the email').fill('000000');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Balances' })).toBeVisible();
}

// ---- test data ---------------------------------------------------------------------------------

let n = 0;
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;

/** A small real PNG (a coloured rectangle), so a document preview shows a picture. */
export function png(width = 120, height = 80, rgb: [number, number, number] = [37, 99, 235]): Uint8Array {
  const crcTable = Array.from({ length: 256 }, (_, i) => {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Uint8Array.from(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(raw)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** An individual whose KYC waits in PENDING_MANUAL_REVIEW (sandbox name suffix 001), with a passport scan. */
export async function customerInReview() {
  const c = await apiOk('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: unique('review'),
    fullName: 'Grace Hopper 001',
    birthDate: '1990-01-15',
    nationality: 'US',
    idType: 'SSN',
    identifier: '123-45-6789',
    address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
  });
  const form = new FormData();
  form.append('documentHolder', c.id);
  form.append('documentType', 'PASSPORT');
  form.append('country', 'US');
  form.append('file', new File([png() as Uint8Array<ArrayBuffer>], 'passport.png', { type: 'image/png' }));
  await apiOk('POST', '/documents', form);
  const v = await apiOk('POST', '/verifications', { customerId: c.id });
  expect(v.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
  return { customer: c, verification: v };
}

/** A customer with an email (so an embedded wallet), its wallet account and credentials. */
export async function walletCustomer(name: string) {
  const email = `${unique(name.toLowerCase().replace(/\W+/g, '-'))}@example.com`;
  const c = await apiOk('POST', '/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: unique('wallet'),
    fullName: name,
    email,
  });
  const accounts = await apiOk(
    'GET',
    `/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}&type=EMBEDDED_WALLET`,
  );
  expect(accounts.data).toHaveLength(1);
  return { id: c.id as string, email, walletId: accounts.data[0].id as string };
}

const beneficiary = {
  beneficiaryType: 'INDIVIDUAL',
  fullName: 'Ada Lovelace',
  countryOfResidence: 'US',
  address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
};

/** A US checking account's accountInfo (ACH), as POST /customers/external-accounts takes it. */
export const US_BANK_ACCOUNT_INFO = {
  accountType: 'USD_ACCOUNT',
  accountNumber: '12345678901',
  routingNumber: '021000021',
  bankAccountType: 'CHECKING',
  bankName: 'Chase Bank',
  beneficiary,
};

export async function usBankAccount(customerId: string) {
  return apiOk('POST', '/customers/external-accounts', {
    customerId,
    currency: 'USD',
    accountInfo: US_BANK_ACCOUNT_INFO,
  });
}

export async function mxnBankAccount(customerId: string) {
  return apiOk('POST', '/customers/external-accounts', {
    customerId,
    currency: 'MXN',
    accountInfo: { accountType: 'MXN_ACCOUNT', clabeNumber: '123456789012345678', beneficiary },
  });
}

/** An agent of the customer (an invoice payer with USD limits) and its first device code. */
export async function invoiceAgent(customerId: string, defaultExecutionMode: 'AUTO' | 'APPROVAL_REQUIRED') {
  const { agent, deviceCode } = await apiOk('POST', '/agents', {
    name: 'Invoice payer',
    customerId,
    policy: {
      permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS'],
      defaultExecutionMode,
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 200_000, monthlyLimit: 1_000_000 },
    },
  });
  return { agent, code: deviceCode.code as string };
}

/** A one-page PDF saying `text` (a real file Chromium's viewer renders), for document previews. */
export function pdf(text: string): Uint8Array {
  const stream = `BT /F1 24 Tf 40 100 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(Buffer.from(out, 'latin1'));
}

/** A document of `holder` (a customer or a beneficial owner) uploaded through the API. */
export async function uploadDocument(holder: string, documentType: string, file: File) {
  const form = new FormData();
  form.append('documentHolder', holder);
  form.append('documentType', documentType);
  form.append('country', 'US');
  form.append('file', file);
  return apiOk('POST', '/documents', form);
}

/**
 * A business whose KYB waits in PENDING_MANUAL_REVIEW (registration number suffix 003): its
 * registry excerpt as a PDF, two beneficial owners by name, each with a passport scan.
 */
export async function businessInReview() {
  const address = { line1: '456 Business Ave', city: 'Seattle', state: 'WA', postalCode: '98101', country: 'US' };
  const registrationNumber = `${unique('REG')}-003`;
  const c = await apiOk('POST', '/customers', {
    customerType: 'BUSINESS',
    platformCustomerId: unique('kyb'),
    address,
    businessInfo: {
      legalName: 'Lovelace Imports Ltd',
      country: 'US',
      taxId: '98-7654321',
      incorporatedOn: '2019-05-01',
      registrationNumber,
      entityType: 'LLC',
      countriesOfOperation: ['US', 'GB'],
    },
  });
  const owners = [];
  for (const [first, last, share, roles] of [
    ['Ada', 'Lovelace', 60, ['UBO', 'CONTROL_PERSON']],
    ['Linus', 'Torvalds', 40, ['UBO']],
  ] as const) {
    const o = await apiOk('POST', '/beneficial-owners', {
      customerId: c.id,
      roles,
      ownershipPercentage: share,
      personalInfo: {
        firstName: first,
        lastName: last,
        birthDate: '1980-05-05',
        nationality: 'GB',
        address,
        idType: 'NON_US_TAX_ID',
        identifier: `ID-${share}-4321`,
      },
    });
    await uploadDocument(
      o.id,
      'PASSPORT',
      new File([png() as Uint8Array<ArrayBuffer>], `${last}.png`, { type: 'image/png' }),
    );
    owners.push(o);
  }
  const excerpt = pdf('Registry excerpt: Lovelace Imports Ltd');
  await uploadDocument(
    c.id,
    'STATE_REGISTRY_EXCERPT',
    new File([excerpt as Uint8Array<ArrayBuffer>], 'registry.pdf', { type: 'application/pdf' }),
  );
  for (const t of ['TRUST_AGREEMENT', 'BANK_STATEMENT'])
    await uploadDocument(c.id, t, new File([png() as Uint8Array<ArrayBuffer>], `${t}.png`, { type: 'image/png' }));
  const v = await apiOk('POST', '/verifications', { customerId: c.id });
  expect(v.verificationStatus).toBe('PENDING_MANUAL_REVIEW');
  return { customer: c, owners, verification: v };
}
