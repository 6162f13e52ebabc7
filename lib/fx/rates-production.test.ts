import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform } from '@/tests/support/api';
import { customerWithAccounts, externalAccount, fund } from '@/tests/support/money';
import { switchMode } from '@/tests/support/mode';
import { ratesSource } from './rates';
import { httpRates } from './rates-http';
import { sandboxRates } from './sandbox-rates';

// A production instance prices only what its rates provider publishes: a currency of the
// service's catalogue that the provider leaves out is refused by name (QUOTE_REQUEST_FAILED,
// RATE_NOT_PUBLISHED) in receiver lookups and quotes — never listed or priced at 1:1. The provider
// is a real HTTP server on loopback answering in Open Exchange Rates' shape (as in
// rates-http.test.ts, which covers the adapter itself).
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ timestamp: Math.floor(Date.now() / 1000), base: 'USD', rates: { USD: 1, EUR: 0.9 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/latest.json?app_id=test`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('a currency the provider does not price is refused in lookups and quotes, never priced 1:1', async () => {
  const p = await newPlatform();
  const sender = await customerWithAccounts(p, 'Rate Sender', ['USD']);
  await fund(p, sender.accounts.USD, 1_000_000);
  const pesos = await customerWithAccounts(p, 'Peso Receiver', ['MXN']);
  const both = await customerWithAccounts(p, 'Two Currencies', ['MXN', 'EUR']);
  const pesoBank = await externalAccount(p, sender.customerId, 'MXN', '123');
  const lookup = (address: string) =>
    p.api.get(`/receiver/uma/${encodeURIComponent(address)}`, { query: { customerId: sender.customerId } });
  const offered = (res: { body: { supportedCurrencies: { currency: { code: string } }[] } }) =>
    res.body.supportedCurrencies.map((c) => c.currency.code);
  const provider = httpRates({ url, refreshEveryMs: 0, backoffMs: 20, timeoutMs: 500 });
  expect(await provider.refresh(new Date())).toMatchObject({ outcome: 'UPDATED' });

  switchMode('production');
  try {
    ratesSource.set(provider);
    const refused = await lookup(pesos.umaAddress);
    expectError(refused, 400, 'QUOTE_REQUEST_FAILED');
    expect(refused.body.message).toMatch(/publishes no rate for MXN/);
    expect(refused.body.details).toMatchObject({ reason: 'RATE_NOT_PUBLISHED' });
    // A receiver taking several currencies is offered in those the provider prices, at its rate.
    const listed = await lookup(both.umaAddress);
    expect(listed.status, listed.text).toBe(200);
    expect(offered(listed)).toEqual(['EUR']);
    expect(listed.body.supportedCurrencies[0].estimatedExchangeRate).toBeCloseTo(1 / 0.9, 10);
    expectError(
      await p.api.get(`/receiver/external-account/${pesoBank}`, { query: { customerId: sender.customerId } }),
      400,
      'QUOTE_REQUEST_FAILED',
    );
    const quote = await p.api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: sender.accounts.USD },
      destination: { destinationType: 'ACCOUNT', accountId: pesoBank },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
    });
    expectError(quote, 400, 'QUOTE_REQUEST_FAILED');
    expect(quote.body.message).toMatch(/publishes no rate for MXN/);
  } finally {
    ratesSource.set(sandboxRates);
    switchMode('sandbox');
  }
  // Sandbox unchanged: the sandbox table prices both.
  const sandboxLookup = await lookup(both.umaAddress);
  expect(sandboxLookup.status, sandboxLookup.text).toBe(200);
  expect(offered(sandboxLookup).sort()).toEqual(['EUR', 'MXN']);
});
