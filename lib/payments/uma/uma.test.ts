import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventsOf } from '@/lib/events/outbox';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { expectLedgerBalanced } from '@/tests/support/ledger';
import {
  advance,
  balanceOf,
  customerWithAccounts,
  externalAccount,
  fund,
  txn,
  type Holder,
} from '@/tests/support/money';

const D = 'sandbox.uma.money';

describe('UMA: receiver lookups, payments to UMA addresses, incoming payments', () => {
  let p: TestPlatform;
  let h: Holder;
  beforeAll(async () => {
    p = await newPlatform();
    h = await customerWithAccounts(p, 'Uma Sender', ['USD', 'EUR', 'MXN']);
    await fund(p, h.accounts.USD, 5_000_000);
  });
  afterEach(async () => {
    await expectLedgerBalanced();
  });

  it.each([
    [`$success.usd@${D}`, 'USD'],
    [`$success.eur@${D}`, 'EUR'],
    [`$success.mxn@${D}`, 'MXN'],
    [`$pending.long.usd@${D}`, 'USD'],
    [`$fail.compliance.usd@${D}`, 'USD'],
  ])('looks up %s (receives %s)', async (address, currency) => {
    const res = await p.api.get(`/receiver/uma/${encodeURIComponent(address)}`, {
      query: { customerId: h.customerId },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.receiverUmaAddress).toBe(address);
    expect(res.body.lookupId).toMatch(/^Lookup:/);
    expect(res.body.supportedCurrencies.map((c: { currency: { code: string } }) => c.currency.code)).toEqual([
      currency,
    ]);
    expect(res.body.requiredPayerDataFields).toContainEqual({ name: 'FULL_NAME', mandatory: true });
  });

  it('refuses bad, unknown and unreachable addresses', async () => {
    const sender = { query: { customerId: h.customerId } };
    expectError(await p.api.get('/receiver/uma/not-an-address', sender), 400, 'INVALID_UMA_ADDRESS');
    expectError(
      await p.api.get(`/receiver/uma/${encodeURIComponent(`$nobody.here@${D}`)}`, sender),
      404,
      'UMA_NOT_FOUND',
    );
    expectError(
      await p.api.get(`/receiver/uma/${encodeURIComponent('$alice@elsewhere.example')}`, sender),
      424,
      'LNURLP_REQUEST_FAILED',
    );
    // The sender is required: customerId or senderUmaAddress (each optional only with the other).
    const anonymous = await p.api.get(`/receiver/uma/${encodeURIComponent(`$success.usd@${D}`)}`);
    expectError(anonymous, 400, 'INVALID_INPUT');
    expect(anonymous.body.details.errors[0].field).toBe('customerId');
    expect(
      (
        await p.api.get(`/receiver/uma/${encodeURIComponent(`$success.usd@${D}`)}`, {
          query: { senderUmaAddress: `$someone@${D}` },
        })
      ).status,
    ).toBe(200);
    expectError(
      await p.api.get(`/receiver/uma/${encodeURIComponent(`$success.usd@${D}`)}`, {
        query: { customerId: 'Customer:00000000-0000-0000-0000-000000000000' },
      }),
      404,
      'USER_NOT_FOUND',
    );
  });

  async function umaQuote(address: string, amount: number, extra: Record<string, unknown> = {}) {
    const lookup = await p.api.get(`/receiver/uma/${encodeURIComponent(address)}`, {
      query: { customerId: h.customerId },
    });
    return p.api.post('/quotes', {
      lookupId: lookup.body.lookupId,
      source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: address },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
      senderCustomerInfo: { FULL_NAME: 'Uma Sender' },
      ...extra,
    });
  }

  it('pays a sandbox UMA address: $success.mxn completes', async () => {
    const q = await umaQuote(`$success.mxn@${D}`, 10000);
    expect(q.status, q.text).toBe(201);
    expect(q.body.receivingCurrency.code).toBe('MXN');
    expect(q.body.destination).toEqual({
      destinationType: 'UMA_ADDRESS',
      umaAddress: `$success.mxn@${D}`,
      currency: 'MXN',
    });
    await p.api.post(`/quotes/${q.body.id}/execute`);
    await advance(p, 5);
    expect((await txn(p, q.body.transactionId)).status).toBe('COMPLETED');
  });

  it('pays same-currency over UMA ($success.usd from USD)', async () => {
    const q = await umaQuote(`$success.usd@${D}`, 2500);
    expect(q.status, q.text).toBe(201);
    expect(q.body.exchangeRate).toBe(1);
    expect(q.body.totalReceivingAmount).toBe(2500 - q.body.feesIncluded);
  });

  it('$fail.compliance fails the compliance check and refunds; $pending.long stays pending', async () => {
    const before = await balanceOf(p, h.accounts.USD);
    const fail = await umaQuote(`$fail.compliance.usd@${D}`, 1000);
    await p.api.post(`/quotes/${fail.body.id}/execute`);
    const slow = await umaQuote(`$pending.long.usd@${D}`, 1000);
    await p.api.post(`/quotes/${slow.body.id}/execute`);
    await advance(p, 3600);
    expect(await txn(p, fail.body.transactionId)).toMatchObject({
      status: 'FAILED',
      failureReason: 'COMPLIANCE_REJECTED',
      refund: { status: 'COMPLETED' },
    });
    expect((await txn(p, slow.body.transactionId)).status).toBe('PROCESSING');
    expect((await balanceOf(p, h.accounts.USD)).available).toBe(before.available - 1000n);
  });

  it('requires a lookupId, a matching one, and every mandatory payer field', async () => {
    const noLookup = await p.api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$success.eur@${D}` },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 100,
    });
    expectError(noLookup, 400, 'INVALID_INPUT');
    expect(noLookup.body.details.errors[0].field).toBe('lookupId');
    const other = await p.api.get(`/receiver/uma/${encodeURIComponent(`$success.usd@${D}`)}`, {
      query: { customerId: h.customerId },
    });
    const mismatch = await p.api.post('/quotes', {
      lookupId: other.body.lookupId,
      source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$success.eur@${D}` },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 100,
      senderCustomerInfo: { FULL_NAME: 'x' },
    });
    expectError(mismatch, 400, 'INVALID_INPUT');
    const missing = await umaQuote(`$success.eur@${D}`, 100, { senderCustomerInfo: {} });
    expectError(missing, 400, 'MISSING_MANDATORY_USER_INFO');
    expect(missing.body.details.errors).toEqual([
      { field: 'senderCustomerInfo.FULL_NAME', message: 'is required by the receiving institution' },
    ]);
    const wrongCurrency = await umaQuote(`$success.eur@${D}`, 100, {
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$success.eur@${D}`, currency: 'MXN' },
    });
    expectError(wrongCurrency, 400, 'INVALID_CURRENCY');
    // A lookup answers for the customer it named: another customer's quote cannot use it.
    const eve = await customerWithAccounts(p, 'Eve Elsewhere', ['USD']);
    const hers = await p.api.get(`/receiver/uma/${encodeURIComponent(`$success.eur@${D}`)}`, {
      query: { customerId: h.customerId },
    });
    const borrowed = await p.api.post('/quotes', {
      lookupId: hers.body.lookupId,
      source: { sourceType: 'ACCOUNT', accountId: eve.accounts.USD },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$success.eur@${D}` },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 100,
      senderCustomerInfo: { FULL_NAME: 'Eve Elsewhere' },
    });
    expectError(borrowed, 400, 'INVALID_INPUT');
    expect(borrowed.body.details.errors[0].field).toBe('lookupId');
    const own = await p.api.post('/quotes', {
      lookupId: hers.body.lookupId,
      source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: `$success.eur@${D}` },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 100,
      senderCustomerInfo: { FULL_NAME: 'Hal' },
    });
    expect(own.status, own.text).toBe(201);
  });

  it('pays another customer of the service by UMA address: both sides are booked', async () => {
    const q2 = await newPlatform();
    const bob = await customerWithAccounts(q2, 'Bob Receiver', ['EUR']);
    const before = await balanceOf(q2, bob.accounts.EUR);
    const lookup = await p.api.get(`/receiver/uma/${encodeURIComponent(bob.umaAddress)}`, {
      query: { customerId: h.customerId },
    });
    expect(lookup.status, lookup.text).toBe(200);
    expect(lookup.body.requiredPayerDataFields).toEqual([]);
    const q = await p.api.post('/quotes', {
      lookupId: lookup.body.lookupId,
      source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: bob.umaAddress },
      lockedCurrencySide: 'RECEIVING',
      lockedCurrencyAmount: 4200,
    });
    expect(q.status, q.text).toBe(201);
    await p.api.post(`/quotes/${q.body.id}/execute`);
    await advance(p, 5);
    expect((await txn(p, q.body.transactionId)).status).toBe('COMPLETED');
    expect((await balanceOf(q2, bob.accounts.EUR)).available).toBe(before.available + 4200n);
    const incoming = await q2.api.get('/transactions', { query: { customerId: bob.customerId, type: 'INCOMING' } });
    expect(incoming.body.data[0]).toMatchObject({
      type: 'INCOMING',
      direction: 'CREDIT',
      status: 'COMPLETED',
      receivedAmount: { amount: 4200 },
      source: { sourceType: 'UMA_ADDRESS', umaAddress: h.umaAddress },
    });
    // Reference: every incoming transaction past CREATED carries reconciliationInstructions.
    expect(incoming.body.data[0].reconciliationInstructions).toEqual({
      reference: expect.stringMatching(/^CR[0-9A-F]{10}$/),
    });
    expect((await eventsOf(q2.platformId, 'INCOMING_PAYMENT.COMPLETED')).length).toBe(1);
    // Paying yourself is refused.
    const self = await p.api.get(`/receiver/uma/${encodeURIComponent(h.umaAddress)}`, {
      query: { customerId: h.customerId },
    });
    expectError(
      await p.api.post('/quotes', {
        lookupId: self.body.lookupId,
        source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: h.umaAddress, currency: 'EUR' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 100,
      }),
      400,
      'SELF_PAYMENT',
    );
  });

  it('a receiver taking several currencies lists the payer fields any of them needs, and the quote asks for no more', async () => {
    const q2 = await newPlatform();
    // EUR needs the payer's nationality on this receiving platform; MXN needs nothing.
    const cfg = await q2.api.patch('/config', {
      supportedCurrencies: [
        {
          currencyCode: 'EUR',
          minAmount: 1,
          maxAmount: 1_000_000_000,
          requiredCounterpartyFields: [{ name: 'NATIONALITY', mandatory: true }],
          enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
        },
        {
          currencyCode: 'MXN',
          minAmount: 1,
          maxAmount: 1_000_000_000,
          requiredCounterpartyFields: [],
          enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
        },
      ],
    });
    expect(cfg.status, cfg.text).toBe(200);
    const bob = await customerWithAccounts(q2, 'Bob Twocurrency', ['MXN', 'EUR']);
    const lookup = await p.api.get(`/receiver/uma/${encodeURIComponent(bob.umaAddress)}`, {
      query: { customerId: h.customerId },
    });
    expect(lookup.status, lookup.text).toBe(200);
    expect(lookup.body.requiredPayerDataFields).toEqual([{ name: 'NATIONALITY', mandatory: true }]);
    const quote = (currency: string, info?: Record<string, string>) =>
      p.api.post('/quotes', {
        lookupId: lookup.body.lookupId,
        source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: bob.umaAddress, currency },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
        ...(info ? { senderCustomerInfo: info } : {}),
      });
    // Every field the lookup listed must be supplied, whichever currency is chosen.
    expectError(await quote('EUR'), 400, 'MISSING_MANDATORY_USER_INFO');
    expectError(await quote('MXN'), 400, 'MISSING_MANDATORY_USER_INFO');
    expect((await quote('EUR', { NATIONALITY: 'US' })).status).toBe(201);
  });

  it('every listed payer field must be supplied, also one the receiving platform marked mandatory: false', async () => {
    const q2 = await newPlatform();
    const cfg = await q2.api.patch('/config', {
      supportedCurrencies: [
        {
          currencyCode: 'EUR',
          minAmount: 1,
          maxAmount: 1_000_000_000,
          requiredCounterpartyFields: [
            { name: 'FULL_NAME', mandatory: true },
            { name: 'BIRTH_DATE', mandatory: false },
          ],
          enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
        },
      ],
    });
    expect(cfg.status, cfg.text).toBe(200);
    const cleo = await customerWithAccounts(q2, 'Cleo Optional', ['EUR']);
    const lookup = await p.api.get(`/receiver/uma/${encodeURIComponent(cleo.umaAddress)}`, {
      query: { customerId: h.customerId },
    });
    expect(lookup.body.requiredPayerDataFields).toEqual([
      { name: 'FULL_NAME', mandatory: true },
      { name: 'BIRTH_DATE', mandatory: false },
    ]);
    const quote = (info: Record<string, string>) =>
      p.api.post('/quotes', {
        lookupId: lookup.body.lookupId,
        source: { sourceType: 'ACCOUNT', accountId: h.accounts.USD },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: cleo.umaAddress, currency: 'EUR' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
        senderCustomerInfo: info,
      });
    // Spec: "Every field listed in requiredPayerDataFields by the receiver lookup MUST be supplied."
    const missing = await quote({ FULL_NAME: 'Uma Sender' });
    expectError(missing, 400, 'MISSING_MANDATORY_USER_INFO');
    expect(missing.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
      'senderCustomerInfo.BIRTH_DATE',
    ]);
    expect((await quote({ FULL_NAME: 'Uma Sender', BIRTH_DATE: '1990-01-01' })).status).toBe(201);
  });

  describe('POST /sandbox/uma/receive', () => {
    it("applies the corridor's single-transaction limit; a balance past int64 is refused with nothing booked", async () => {
      const q3 = await newPlatform();
      const r = await customerWithAccounts(q3, 'Max Receiver', ['USD']);
      const receive = (amount: bigint) =>
        q3.api.post('/sandbox/uma/receive', {
          senderUmaAddress: `$success.usd@${D}`,
          customerId: r.customerId,
          receivingCurrencyCode: 'USD',
          receivingCurrencyAmount: amount,
        });
      expectError(await receive(9_223_372_036_854_775_807n), 400, 'TRANSACTION_SIZE_LIMIT_EXCEEDED');
      // With the limit raised to int64's maximum, the second payment would overflow the balance.
      const cfg = await q3.api.patch('/config', {
        supportedCurrencies: [
          {
            currencyCode: 'USD',
            minAmount: 1,
            maxAmount: 9_223_372_036_854_775_807n,
            requiredCounterpartyFields: [],
            enabledTransactionTypes: ['INCOMING', 'OUTGOING'],
          },
        ],
      });
      expect(cfg.status, cfg.text).toBe(200);
      expect((await receive(5_000_000_000_000_000_000n)).status).toBe(200);
      const before = await balanceOf(q3, r.accounts.USD);
      expectError(await receive(5_000_000_000_000_000_000n), 400, 'INVALID_INPUT');
      expect(await balanceOf(q3, r.accounts.USD)).toEqual(before);
      await expectLedgerBalanced(q3.platformId);
    });

    it('deposits into the primary internal account when there is no default UMA deposit account', async () => {
      const r = await customerWithAccounts(p, 'Rita Receiver', ['USD', 'EUR']);
      const res = await p.api.post('/sandbox/uma/receive', {
        senderUmaAddress: `$success.usd@${D}`,
        receiverUmaAddress: r.umaAddress,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 1234,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        type: 'INCOMING',
        status: 'COMPLETED',
        receivedAmount: { amount: 1234 },
        source: { umaAddress: `$success.usd@${D}` },
      });
      expect(res.body.reconciliationInstructions).toEqual({ reference: expect.stringMatching(/^CR[0-9A-F]{10}$/) });
      expect((await balanceOf(p, r.accounts.USD)).available).toBe(1234n);
      const byId = await p.api.post('/sandbox/uma/receive', {
        senderUmaAddress: `$success.eur@${D}`,
        customerId: r.customerId,
        receivingCurrencyCode: 'EUR',
        receivingCurrencyAmount: 99,
      });
      expect(byId.body.status).toBe('COMPLETED');
      expect((await balanceOf(p, r.accounts.EUR)).available).toBe(99n);
    });

    it('shows what the sender paid in its own currency: $success.mxn@ pays MXN for a USD receipt', async () => {
      const r = await customerWithAccounts(p, 'Max Receiver', ['USD']);
      const res = await p.api.post('/sandbox/uma/receive', {
        senderUmaAddress: `$success.mxn@${D}`,
        customerId: r.customerId,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 10000,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        status: 'COMPLETED',
        source: { sourceType: 'UMA_ADDRESS', currency: 'MXN' },
        receivedAmount: { amount: 10000, currency: { code: 'USD' } },
        sentAmount: { currency: { code: 'MXN' } },
      });
      // exchangeRate is sending units per receiving unit: the MXN sent is the USD received at that
      // rate, rounded up to the centavo.
      const sent = Number(res.body.sentAmount.amount);
      expect(sent).toBeGreaterThan(10000 * 5);
      expect(Math.abs(sent - 10000 * res.body.exchangeRate)).toBeLessThanOrEqual(1);
      expect((await balanceOf(p, r.accounts.USD)).available).toBe(10000n); // the receiver gets the amount asked for
      // Same currency: no conversion, no rate.
      const same = await p.api.post('/sandbox/uma/receive', {
        senderUmaAddress: `$success.usd@${D}`,
        customerId: r.customerId,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 500,
      });
      expect(same.body.source.currency).toBe('USD');
      expect(same.body).not.toHaveProperty('exchangeRate');
    });

    it('deposits into the default UMA deposit account when one is set', async () => {
      const r = await customerWithAccounts(p, 'Dora Default', ['USD']);
      const ext = await externalAccount(p, r.customerId, 'MXN', '555', { defaultUmaDepositAccount: true });
      const res = await p.api.post('/sandbox/uma/receive', {
        senderUmaAddress: `$success.mxn@${D}`,
        customerId: r.customerId,
        receivingCurrencyCode: 'MXN',
        receivingCurrencyAmount: 5000,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.destination.accountId ?? res.body.destination.umaAddress).toBeDefined();
      expect((await txn(p, res.body.id)).status).toBe('COMPLETED');
      const t = await txn(p, res.body.id);
      expect(t.receivedAmount.amount).toBe(5000);
      expect((await balanceOf(p, r.accounts.USD)).available).toBe(0n);
      void ext;
      expectError(
        await p.api.post('/sandbox/uma/receive', {
          senderUmaAddress: `$success.usd@${D}`,
          customerId: r.customerId,
          receivingCurrencyCode: 'USD',
          receivingCurrencyAmount: 1,
        }),
        400,
        'INVALID_CURRENCY',
      );
    });

    it('a compliance-failing sender fails the incoming payment; errors for unknown parties', async () => {
      const r = await customerWithAccounts(p, 'Cara Compliance', ['USD']);
      const res = await p.api.post('/sandbox/uma/receive', {
        senderUmaAddress: `$fail.compliance.usd@${D}`,
        customerId: r.customerId,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 100,
      });
      expect(res.body).toMatchObject({ status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED' });
      expect((await balanceOf(p, r.accounts.USD)).total).toBe(0n);
      expectError(
        await p.api.post('/sandbox/uma/receive', {
          senderUmaAddress: `$stranger@${D}`,
          customerId: r.customerId,
          receivingCurrencyCode: 'USD',
          receivingCurrencyAmount: 100,
        }),
        404,
        'UMA_NOT_FOUND',
      );
      expectError(
        await p.api.post('/sandbox/uma/receive', {
          senderUmaAddress: `$success.usd@${D}`,
          receiverUmaAddress: `$ghost@${D}`,
          receivingCurrencyCode: 'USD',
          receivingCurrencyAmount: 100,
        }),
        404,
        'UMA_NOT_FOUND',
      );
      expectError(
        await p.api.post('/sandbox/uma/receive', {
          senderUmaAddress: `$success.usd@${D}`,
          customerId: 'Customer:00000000-0000-0000-0000-000000000000',
          receivingCurrencyCode: 'USD',
          receivingCurrencyAmount: 100,
        }),
        404,
        'USER_NOT_FOUND',
      );
      expectError(
        await p.api.post('/sandbox/uma/receive', {
          senderUmaAddress: `$success.usd@${D}`,
          receivingCurrencyCode: 'USD',
          receivingCurrencyAmount: 100,
        }),
        400,
        'INVALID_INPUT',
      );
    });
  });
});
