import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { solanaWallet } from '@/lib/external-accounts/testing';
import { startProductionServer, type ProductionServer } from './support/production-server';

// The sandbox liveness page as a browser meets it: on a production build (scripts/server.mjs, as
// `npm start` runs it), following the verificationLink the API handed out, through Next.js's
// router and proxy.ts. The server runs no worker and its clock is never advanced, so the wallet
// ownership check can only have been completed by the page's button.
let server: ProductionServer;
let auth: string;
beforeAll(async () => {
  server = await startProductionServer(inject('embedded'));
  auth = `Basic ${Buffer.from(`${server.clientId}:${server.clientSecret}`).toString('base64')}`;
}, 600_000);
afterAll(async () => {
  await server?.stop();
});

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.base}/api/2025-10-13${path}`, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

it('a LIVENESS ownership link opens a page on the server whose button makes the account ACTIVE', async () => {
  const owner = await api('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Page Visitor', region: 'ES' });
  expect(owner.status, JSON.stringify(owner.body)).toBe(201);
  const acct = await api('POST', '/customers/external-accounts', {
    customerId: owner.body.id,
    currency: 'USDC',
    ownershipType: 'FIRST_PARTY',
    accountInfo: { accountType: 'SOLANA_WALLET', address: solanaWallet().address },
  });
  expect(acct.status, JSON.stringify(acct.body)).toBe(201);
  const ch = await api('POST', `/customers/external-accounts/${acct.body.id}/challenge`, { method: 'LIVENESS' });
  expect(ch.status, JSON.stringify(ch.body)).toBe(201);

  // The link names this server (its public URL is the local one on $PORT): followed as given,
  // only the host name is pinned to the address the server listens on.
  const link = new URL(ch.body.verificationLink);
  expect(link.port).toBe(String(server.port));
  expect(link.pathname).toMatch(/^\/sandbox\/liveness\/Challenge%3A[0-9a-f-]{36}$/);
  const url = `${server.base}${link.pathname}`;
  const page = await fetch(url);
  const html = await page.text();
  expect(page.status, html).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(html).toContain('data-testid="status">PENDING<');
  expect(html).toContain('<button type="submit">Complete the liveness check</button>');
  // The page's own style runs under the Content-Security-Policy's nonce.
  const nonce = /'nonce-([^']+)'/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
  expect(nonce).toBeTruthy();
  expect(html).toContain(`<style nonce="${nonce}">`);

  const forged = await fetch(url, { method: 'POST', headers: { origin: 'https://evil.example' }, redirect: 'manual' });
  expect(forged.status).toBe(403);
  expect((await api('GET', `/customers/external-accounts/${acct.body.id}`)).body.status).toBe(
    'PENDING_OWNERSHIP_VERIFICATION',
  );

  const pressed = await fetch(url, {
    method: 'POST',
    headers: { origin: server.base, 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
  expect(pressed.status).toBe(303);
  expect(pressed.headers.get('location')).toBe(link.pathname);
  expect((await api('GET', `/customers/external-accounts/${acct.body.id}`)).body.status).toBe('ACTIVE');
  expect(await (await fetch(url)).text()).toContain('data-testid="status">SUCCEEDED<');
  expect((await fetch(`${server.base}/sandbox/liveness/Challenge%3Anothing`)).status).toBe(404);
});
