import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { withStrictRequests } from '@/tests/support/request-mode';

// The webhook endpoints here (hooks.example.com) do not resolve; PATCH /config checks that an
// endpoint is public only where private targets are not allowed (lib/webhooks/endpoint.test.ts).
beforeAll(() => {
  process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE = '1';
});
afterAll(() => {
  delete process.env.CORRIDOR_WEBHOOK_ALLOW_PRIVATE;
});

let p: TestPlatform;
beforeAll(async () => {
  p = await newPlatform();
});

it('returns the configuration with supported currencies and limits', async () => {
  const res = await p.api.get('/config');
  expect(res.status).toBe(200);
  expect(res.body.id).toBe(p.platformId);
  expect(res.body.umaDomain).toBe('sandbox.uma.money');
  expect(res.body.supportedCurrencies.map((c: { currencyCode: string }) => c.currencyCode)).toEqual([
    'USD',
    'EUR',
    'MXN',
    'USDC',
  ]);
  expect(res.body.feeConfigs).toEqual([]);
});

it('updates fields and keeps integers exact beyond 2^53', async () => {
  const res = await p.api.patch('/config', {
    umaDomain: 'pay.example.com',
    webhookEndpoint: 'https://hooks.example.com/corridor',
    supportedCurrencies: [
      {
        currencyCode: 'USD',
        minAmount: 100,
        maxAmount: 9007199254740993n,
        requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }],
        enabledTransactionTypes: ['OUTGOING'],
      },
      {
        currencyCode: 'EUR',
        minAmount: 1,
        maxAmount: 5000000,
        requiredCounterpartyFields: [],
        enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
      },
    ],
    embeddedWalletConfig: { otpLength: 8 },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.text).toContain('"maxAmount":9007199254740993');
  expect(res.body.supportedCurrencies[0].maxAmount).toBe(9007199254740993n);
  expect(res.body.umaDomain).toBe('pay.example.com');
  expect(res.body.webhookEndpoint).toBe('https://hooks.example.com/corridor');
  // Nested config merges: appName from creation survives, otpLength changed.
  expect(res.body.embeddedWalletConfig).toMatchObject({
    appName: 'Test platform',
    otpLength: 8,
    expirationSeconds: 300,
  });
  const again = await p.api.get('/config');
  expect(again.text).toContain('"maxAmount":9007199254740993');
});

it('takes back what GET /config returned, read-only provider fields included, and refuses unknown fields in strict mode', async () => {
  const q = await newPlatform();
  const current = (await q.api.get('/config')).body;
  const echoed = current.supportedCurrencies.map((c: Record<string, unknown>) => ({
    ...c,
    providerRequiredCustomerFields: ['NATIONALITY'],
    providerRequiredCounterpartyCustomerFields: ['FULL_NAME'],
  }));
  const res = await q.api.patch('/config', { supportedCurrencies: echoed });
  expect(res.status, res.text).toBe(200);
  expect(res.body.supportedCurrencies.map((c: { currencyCode: string }) => c.currencyCode)).toEqual(
    current.supportedCurrencies.map((c: { currencyCode: string }) => c.currencyCode),
  );
  const typo = await withStrictRequests(() =>
    q.api.patch('/config', { webhookEndpont: 'https://hooks.example.com/x' }),
  );
  expectError(typo, 400, 'INVALID_INPUT');
  expect(typo.body.details.errors).toEqual([{ field: 'webhookEndpont', message: 'is not a field of this operation' }]);
  expect((await q.api.get('/config')).body.webhookEndpoint).toBeUndefined();
  // Read leniently (the default) the misspelt field is ignored: nothing changes, nothing is echoed.
  const lenient = await q.api.patch('/config', { webhookEndpont: 'https://hooks.example.com/x' });
  expect(lenient.status, lenient.text).toBe(200);
  expect(lenient.text).not.toContain('webhookEndpont');
  expect((await q.api.get('/config')).body.webhookEndpoint).toBeUndefined();
});

it('opens a platform internal account for each newly supported currency', async () => {
  const q = await newPlatform();
  const before = await q.api.get('/platform/internal-accounts');
  expect(before.status).toBe(200);
  expect(
    before.body.data.map((a: { balance: { currency: { code: string } } }) => a.balance.currency.code).sort(),
  ).toEqual(['EUR', 'MXN', 'USD', 'USDC']);
  const res = await q.api.patch('/config', {
    supportedCurrencies: [
      {
        currencyCode: 'GBP',
        minAmount: 1,
        maxAmount: 100000,
        requiredCounterpartyFields: [],
        enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
      },
    ],
  });
  expect(res.status).toBe(200);
  const after = await q.api.get('/platform/internal-accounts');
  expect(after.body.data.map((a: { balance: { currency: { code: string } } }) => a.balance.currency.code)).toContain(
    'GBP',
  );
});

it('merges fee configs by key and deactivates all-zero ones', async () => {
  const set = await p.api.patch('/config', {
    feeConfigs: [
      {
        feeType: 'CROSS_CURRENCY_TRANSACTION',
        sourceCurrency: 'USD',
        variableFeeBps: 50,
        fixedFee: { amount: 25, currency: 'USD' },
      },
    ],
  });
  expect(set.status).toBe(200);
  expect(set.body.feeConfigs).toEqual([
    {
      feeType: 'CROSS_CURRENCY_TRANSACTION',
      sourceCurrency: 'USD',
      variableFeeBps: 50,
      fixedFee: { amount: 25, currency: 'USD' },
    },
  ]);
  const off = await p.api.patch('/config', {
    feeConfigs: [
      {
        feeType: 'CROSS_CURRENCY_TRANSACTION',
        sourceCurrency: 'USD',
        variableFeeBps: 0,
        fixedFee: { amount: 0, currency: 'USD' },
      },
    ],
  });
  expect(off.body.feeConfigs).toEqual([]);
  expectError(
    await p.api.patch('/config', {
      feeConfigs: [
        {
          feeType: 'CROSS_CURRENCY_TRANSACTION',
          sourceCurrency: 'EUR',
          variableFeeBps: 10,
          fixedFee: { amount: 0, currency: 'EUR' },
        },
      ],
    }),
    501,
    'NOT_IMPLEMENTED',
  );
  // A fixed fee in another currency than the source's would never be charged: refused, nothing stored.
  const other = await p.api.patch('/config', {
    feeConfigs: [
      {
        feeType: 'CROSS_CURRENCY_TRANSACTION',
        sourceCurrency: 'USD',
        variableFeeBps: 10,
        fixedFee: { amount: 5, currency: 'EUR' },
      },
    ],
  });
  expectError(other, 400, 'INVALID_CURRENCY');
  expect(other.body.details.errors[0].field).toBe('feeConfigs[0].fixedFee.currency');
  expect((await p.api.get('/config')).body.feeConfigs).toEqual([]);
});

it('rejects invalid values with field errors and writes nothing', async () => {
  const before = await p.api.get('/config');
  const res = await p.api.patch('/config', {
    umaDomain: 'not a domain',
    webhookEndpoint: 'ftp://x',
    supportedCurrencies: [
      {
        currencyCode: 'usd',
        minAmount: -1,
        maxAmount: 10,
        requiredCounterpartyFields: [],
        enabledTransactionTypes: ['SIDEWAYS'],
      },
    ],
  });
  expectError(res, 400, 'INVALID_INPUT');
  const fields = res.body.details.errors.map((e: { field: string }) => e.field);
  expect(fields).toEqual(
    expect.arrayContaining([
      'umaDomain',
      'webhookEndpoint',
      'supportedCurrencies[0].currencyCode',
      'supportedCurrencies[0].minAmount',
      'supportedCurrencies[0].enabledTransactionTypes[0]',
    ]),
  );
  const after = await p.api.get('/config');
  expect(after.text).toBe(before.text);
});

it('refuses an unknown currency and min above max', async () => {
  expectError(
    await p.api.patch('/config', {
      supportedCurrencies: [
        {
          currencyCode: 'XYZ',
          minAmount: 1,
          maxAmount: 2,
          requiredCounterpartyFields: [],
          enabledTransactionTypes: [],
        },
      ],
    }),
    400,
    'INVALID_CURRENCY',
  );
  const res = await p.api.patch('/config', {
    supportedCurrencies: [
      {
        currencyCode: 'USD',
        minAmount: 10,
        maxAmount: 2,
        requiredCounterpartyFields: [],
        enabledTransactionTypes: [],
      },
    ],
  });
  expectError(res, 400, 'INVALID_INPUT');
  expect(res.body.details.errors[0].field).toBe('supportedCurrencies[0].maxAmount');
});
