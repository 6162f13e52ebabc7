import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { eventsOf } from '@/lib/events/outbox';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { defaultUmaDepositAccount, getForPayment } from './service';
import { individual, SAMPLES } from './testing';

const sample = (type: string) => SAMPLES.find((s) => s.accountType === type)!;
const usdInfo = (sfx: string, extra: Record<string, unknown> = {}) => ({
  ...sample('USD_ACCOUNT').info(sfx),
  ...extra,
});

describe('external accounts', () => {
  let p: TestPlatform;
  let customerId: string;
  const newCustomer = async (extra: Record<string, unknown> = {}) =>
    (await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Owner Person', region: 'US', ...extra }))
      .body.id as string;
  const createUsd = (sfx: string, body: Record<string, unknown> = {}) =>
    p.api.post('/customers/external-accounts', { customerId, currency: 'USD', accountInfo: usdInfo(sfx), ...body });

  beforeAll(async () => {
    p = await newPlatform();
    customerId = await newCustomer();
  });

  describe('sandbox beneficiary verification by the identifier suffix', () => {
    it.each([
      ['102', 'NOT_MATCHED', undefined],
      ['103', 'PARTIAL_MATCH', 'A. Lovelace'],
      ['104', 'PENDING', undefined],
      ['106', 'UNSUPPORTED', undefined],
      ['107', 'CHECKED_BY_RECEIVING_FI', undefined],
      ['101', 'MATCHED', 'Ada Lovelace'],
      ['000', 'MATCHED', 'Ada Lovelace'],
    ])('account number ending %s → %s', async (sfx, status, verifiedName) => {
      const res = await createUsd(sfx);
      expect(res.status, res.text).toBe(201);
      expect(res.body.beneficiaryVerificationStatus).toBe(status);
      expect(res.body.beneficiaryVerifiedData?.fullName).toBe(verifiedName);
      expect(res.body.status).toBe('ACTIVE');
    });

    it('105 is an invalid account: 400 INVALID_BANK_ACCOUNT and nothing is written', async () => {
      const before = (await p.api.get('/customers/external-accounts', { query: { customerId } })).body.totalCount;
      expectError(await createUsd('105'), 400, 'INVALID_BANK_ACCOUNT');
      const wallet = await p.api.post('/customers/external-accounts', {
        customerId,
        currency: 'USDC',
        accountInfo: sample('BASE_WALLET').info('105'),
      });
      expectError(wallet, 400, 'INVALID_BANK_ACCOUNT');
      expect((await p.api.get('/customers/external-accounts', { query: { customerId } })).body.totalCount).toBe(before);
    });

    it('reads other primary identifiers: IBAN, CLABE, phone, wallet address', async () => {
      const cases: [string, string, string][] = [
        ['EUR_ACCOUNT', '102', 'NOT_MATCHED'],
        ['MXN_ACCOUNT', '103', 'PARTIAL_MATCH'],
        ['KES_ACCOUNT', '104', 'PENDING'],
        ['SOLANA_WALLET', '106', 'UNSUPPORTED'],
        ['TRON_WALLET', '107', 'CHECKED_BY_RECEIVING_FI'],
      ];
      for (const [type, sfx, status] of cases) {
        const s = sample(type);
        const res = await p.api.post('/customers/external-accounts', {
          customerId,
          currency: s.currency,
          accountInfo: s.info(sfx),
        });
        expect(res.status, `${type} ${res.text}`).toBe(201);
        expect(res.body.beneficiaryVerificationStatus, type).toBe(status);
      }
    });

    it('for identifiers with a domain part, reads the digits at the end of the user part', async () => {
      const ln = await p.api.post('/customers/external-accounts', {
        customerId,
        currency: 'BTC',
        accountInfo: { accountType: 'LIGHTNING', lightningAddress: 'ada102@wallet.example.com' },
      });
      expect(ln.body.beneficiaryVerificationStatus).toBe('NOT_MATCHED');
      const upi = await p.api.post('/customers/external-accounts', {
        customerId,
        currency: 'INR',
        accountInfo: { accountType: 'INR_ACCOUNT', vpa: 'ada103@okhdfc', beneficiary: individual },
      });
      expect(upi.body.beneficiaryVerificationStatus).toBe('PARTIAL_MATCH');
      expectError(
        await p.api.post('/customers/external-accounts', {
          customerId,
          currency: 'BTC',
          accountInfo: { accountType: 'LIGHTNING', lightningAddress: 'ada105@wallet.example.com' },
        }),
        400,
        'INVALID_BANK_ACCOUNT',
      );
    });
  });

  it('gets, lists and deletes; a deleted account is gone and turned INACTIVE with an event', async () => {
    const made = await createUsd('200', { platformAccountId: 'ext-200' });
    expect(made.body.platformAccountId).toBe('ext-200');
    const id = made.body.id;
    expect((await p.api.get(`/customers/external-accounts/${id}`)).body).toEqual(made.body);
    const del = await p.api.delete(`/customers/external-accounts/${id}`);
    expect(del.status, del.text).toBe(204);
    expect(del.text).toBe('');
    expectError(await p.api.get(`/customers/external-accounts/${id}`), 404, 'REFERENCE_NOT_FOUND');
    expectError(await p.api.delete(`/customers/external-accounts/${id}`), 404, 'REFERENCE_NOT_FOUND');
    expectError(
      await p.api.get('/customers/external-accounts/ExternalAccount:00000000-0000-0000-0000-000000000000'),
      404,
      'REFERENCE_NOT_FOUND',
    );
    expectError(await p.api.get('/customers/external-accounts/not-an-id'), 404, 'REFERENCE_NOT_FOUND');
    const events = (await eventsOf(p.platformId, 'EXTERNAL_ACCOUNT.STATUS_UPDATED')).filter(
      (e) => e.body.data.id === id,
    );
    expect(events.map((e) => e.body.data.status)).toEqual(['INACTIVE']);
    expect(events[0].body.data).toMatchObject({ ...made.body, status: 'INACTIVE' });
    expect(await getForPayment(p.platformId, id)).toBeNull();
  });

  describe('platform accounts', () => {
    it('lives in its own collection: 404 across collections, both ways', async () => {
      const plat = await p.api.post('/platform/external-accounts', { currency: 'USD', accountInfo: usdInfo('300') });
      expect(plat.status, plat.text).toBe(201);
      expect(plat.body.customerId).toBeUndefined();
      const cust = await createUsd('300');
      expect(cust.status).toBe(201); // same identifier, different owner: not a duplicate
      expect((await p.api.get(`/platform/external-accounts/${plat.body.id}`)).body).toEqual(plat.body);
      expectError(await p.api.get(`/customers/external-accounts/${plat.body.id}`), 404, 'REFERENCE_NOT_FOUND');
      expectError(await p.api.get(`/platform/external-accounts/${cust.body.id}`), 404, 'REFERENCE_NOT_FOUND');
      expectError(await p.api.delete(`/customers/external-accounts/${plat.body.id}`), 404, 'REFERENCE_NOT_FOUND');
      expectError(await p.api.delete(`/platform/external-accounts/${cust.body.id}`), 404, 'REFERENCE_NOT_FOUND');
      const list = await p.api.get('/platform/external-accounts');
      expect(list.body.data.every((a: { customerId?: string }) => a.customerId === undefined)).toBe(true);
      expect(list.body.data.map((a: { id: string }) => a.id)).toContain(plat.body.id);
      expect(
        (await p.api.get('/customers/external-accounts')).body.data.map((a: { id: string }) => a.id),
      ).not.toContain(plat.body.id);
      expect((await p.api.delete(`/platform/external-accounts/${plat.body.id}`)).status).toBe(204);
      expectError(await p.api.get(`/platform/external-accounts/${plat.body.id}`), 404, 'REFERENCE_NOT_FOUND');
    });

    it('refuses customerId on the platform endpoint; the customer endpoint without one creates a platform account', async () => {
      const res = await p.api.post('/platform/external-accounts', {
        customerId,
        currency: 'USD',
        accountInfo: usdInfo('301'),
      });
      expectError(res, 400, 'INVALID_INPUT');
      expect(res.body.details.errors.map((e: { field: string }) => e.field)).toEqual(['customerId']);
      const implicit = await p.api.post('/customers/external-accounts', {
        currency: 'USD',
        accountInfo: usdInfo('302'),
      });
      expect(implicit.status, implicit.text).toBe(201);
      expect(implicit.body.customerId).toBeUndefined();
      expect((await p.api.get(`/platform/external-accounts/${implicit.body.id}`)).status).toBe(200);
    });
  });

  it('refuses an unknown or deleted customer as a field error', async () => {
    const res = await createUsd('400', { customerId: 'Customer:00000000-0000-0000-0000-000000000000' });
    expectError(res, 400, 'INVALID_INPUT');
    expect(res.body.details.errors[0].field).toBe('customerId');
    const gone = await newCustomer();
    await p.api.delete(`/customers/${gone}`);
    expectError(await createUsd('401', { customerId: gone }), 400, 'INVALID_INPUT');
  });

  describe('defaultUmaDepositAccount', () => {
    it('keeps at most one per customer: a new default replaces the old one', async () => {
      const owner = await newCustomer();
      expect(await defaultUmaDepositAccount(p.platformId, owner)).toBeNull();
      const a = await createUsd('500', { customerId: owner, defaultUmaDepositAccount: true });
      expect(a.body.defaultUmaDepositAccount).toBe(true);
      expect((await defaultUmaDepositAccount(p.platformId, owner))?.id).toBe(a.body.id);
      const b = await p.api.post('/customers/external-accounts', {
        customerId: owner,
        currency: 'EUR',
        accountInfo: sample('EUR_ACCOUNT').info('501'),
        defaultUmaDepositAccount: true,
      });
      expect(b.body.defaultUmaDepositAccount).toBe(true);
      expect((await p.api.get(`/customers/external-accounts/${a.body.id}`)).body.defaultUmaDepositAccount).toBe(false);
      const c = await createUsd('502', { customerId: owner });
      expect(c.body.defaultUmaDepositAccount).toBe(false);
      const dflt = await defaultUmaDepositAccount(p.platformId, owner);
      expect(dflt).toMatchObject({
        id: b.body.id,
        customerId: owner,
        currency: 'EUR',
        accountType: 'EUR_ACCOUNT',
        status: 'ACTIVE',
        primaryIdentifier: b.body.accountInfo.iban,
      });
      expect(dflt?.beneficiary).toMatchObject({ beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
      // Another customer's default is untouched.
      expect((await p.api.get(`/customers/external-accounts/${a.body.id}`)).body.defaultUmaDepositAccount).toBe(false);
      // Deleting the default leaves the customer without one.
      await p.api.delete(`/customers/external-accounts/${b.body.id}`);
      expect(await defaultUmaDepositAccount(p.platformId, owner)).toBeNull();
    });

    it('is enforced by the database too', async () => {
      const owner = await newCustomer();
      const a = await createUsd('510', { customerId: owner, defaultUmaDepositAccount: true });
      const b = await createUsd('511', { customerId: owner });
      await expect(
        db().externalAccount.update({ where: { id: b.body.id }, data: { defaultUmaDepositAccount: true } }),
      ).rejects.toThrow();
      expect(a.body.defaultUmaDepositAccount).toBe(true);
    });

    it('needs a customer', async () => {
      const res = await p.api.post('/customers/external-accounts', {
        currency: 'USD',
        accountInfo: usdInfo('512'),
        defaultUmaDepositAccount: true,
      });
      expectError(res, 400, 'INVALID_INPUT');
      expect(res.body.details.errors[0].field).toBe('defaultUmaDepositAccount');
    });
  });

  describe('duplicates', () => {
    it('refuses the same owner, currency and identifier with 409 CONFLICT', async () => {
      const first = await createUsd('600');
      const dup = await createUsd('600');
      expectError(dup, 409, 'CONFLICT');
      expect(dup.body.details.externalAccountId).toBe(first.body.id);
      const evm = sample('ETHEREUM_WALLET').info('601');
      expect(
        (await p.api.post('/customers/external-accounts', { customerId, currency: 'USDC', accountInfo: evm })).status,
      ).toBe(201);
      const upper = { ...evm, address: `0x${String(evm.address).slice(2).toUpperCase()}` };
      expectError(
        await p.api.post('/customers/external-accounts', { customerId, currency: 'USDC', accountInfo: upper }),
        409,
        'CONFLICT',
      );
      // The routing number identifies the bank; a differently spelled bank name does not make another account.
      expectError(
        await createUsd('600', { accountInfo: usdInfo('600', { bankName: 'JPMorgan Chase' }) }),
        409,
        'CONFLICT',
      );
      const iban = sample('EUR_ACCOUNT').info('602');
      expect(
        (await p.api.post('/customers/external-accounts', { customerId, currency: 'EUR', accountInfo: iban })).status,
      ).toBe(201);
      // An IBAN names the account by itself: the same IBAN without a BIC is the same account.
      const withoutBic = { ...iban, swiftCode: undefined };
      expectError(
        await p.api.post('/customers/external-accounts', { customerId, currency: 'EUR', accountInfo: withoutBic }),
        409,
        'CONFLICT',
      );
    });

    it('allows it for another owner, another currency, another bank or chain, or after deletion', async () => {
      const first = await createUsd('610');
      expect((await createUsd('610', { customerId: await newCustomer() })).status).toBe(201);
      expect((await createUsd('610', { accountInfo: usdInfo('610', { routingNumber: '011000015' }) })).status).toBe(
        201,
      );
      const evm = sample('ETHEREUM_WALLET').info('611');
      expect(
        (await p.api.post('/customers/external-accounts', { customerId, currency: 'USDC', accountInfo: evm })).status,
      ).toBe(201);
      expect(
        (await p.api.post('/customers/external-accounts', { customerId, currency: 'USDT', accountInfo: evm })).status,
      ).toBe(201);
      expect(
        (
          await p.api.post('/customers/external-accounts', {
            customerId,
            currency: 'USDC',
            accountInfo: { ...evm, accountType: 'BASE_WALLET' },
          })
        ).status,
      ).toBe(201);
      await p.api.delete(`/customers/external-accounts/${first.body.id}`);
      expect((await createUsd('610')).status).toBe(201);
    });
  });

  it('stays consistent under concurrent creates: one duplicate wins, one default remains', async () => {
    const same = () => p.api.post('/platform/external-accounts', { currency: 'USD', accountInfo: usdInfo('630') });
    const platformRace = await Promise.all([same(), same(), same()]);
    expect(platformRace.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const owner = await newCustomer();
    const customerRace = await Promise.all([0, 1, 2].map(() => createUsd('631', { customerId: owner })));
    expect(customerRace.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    await Promise.all(
      ['632', '633', '634'].map((sfx) => createUsd(sfx, { customerId: owner, defaultUmaDepositAccount: true })),
    );
    const all = (await p.api.get('/customers/external-accounts', { query: { customerId: owner } })).body.data;
    expect(all.filter((a: { defaultUmaDepositAccount: boolean }) => a.defaultUmaDepositAccount)).toHaveLength(1);
  });

  it('accepts SLV or USD for the SLV corridor', async () => {
    const s = sample('SLV_ACCOUNT');
    for (const currency of ['SLV', 'USD']) {
      expect(
        (
          await p.api.post('/customers/external-accounts', {
            customerId,
            currency,
            accountInfo: s.info(currency === 'SLV' ? '620' : '621'),
          })
        ).status,
      ).toBe(201);
    }
  });

  it('replays a create with the same Idempotency-Key', async () => {
    const key = crypto.randomUUID();
    const a = await createUsd('700', {});
    expect(a.status).toBe(201);
    const first = await p.api.post(
      '/customers/external-accounts',
      { customerId, currency: 'USD', accountInfo: usdInfo('701') },
      { headers: { 'idempotency-key': key } },
    );
    const again = await p.api.post(
      '/customers/external-accounts',
      { customerId, currency: 'USD', accountInfo: usdInfo('701') },
      { headers: { 'idempotency-key': key } },
    );
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('paginates and filters lists', async () => {
    const q = await newPlatform();
    const owner = (await q.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Lister' })).body.id;
    const other = (await q.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Other' })).body.id;
    const made: string[] = [];
    for (let i = 0; i < 3; i++)
      made.push(
        (
          await q.api.post('/customers/external-accounts', {
            customerId: owner,
            currency: 'USD',
            accountInfo: usdInfo(`80${i}`),
          })
        ).body.id,
      );
    made.push(
      (
        await q.api.post('/customers/external-accounts', {
          customerId: owner,
          currency: 'EUR',
          accountInfo: sample('EUR_ACCOUNT').info('803'),
        })
      ).body.id,
    );
    await q.api.post('/customers/external-accounts', {
      customerId: other,
      currency: 'USD',
      accountInfo: usdInfo('804'),
    });
    await q.api.post('/platform/external-accounts', { currency: 'USD', accountInfo: usdInfo('805') });

    const page1 = await q.api.get('/customers/external-accounts', { query: { customerId: owner, limit: 3 } });
    expect(page1.body).toMatchObject({ hasMore: true, totalCount: 4 });
    expect(page1.body.data).toHaveLength(3);
    const page2 = await q.api.get('/customers/external-accounts', {
      query: { customerId: owner, limit: 3, cursor: page1.body.nextCursor },
    });
    expect(page2.body).toMatchObject({ hasMore: false, totalCount: 4 });
    expect(page2.body.nextCursor).toBeUndefined();
    expect([...page1.body.data, ...page2.body.data].map((a: { id: string }) => a.id).sort()).toEqual([...made].sort());
    expect(page1.body.data[0].id).toBe(made[3]); // newest first

    expect(
      (await q.api.get('/customers/external-accounts', { query: { customerId: owner, currency: 'EUR' } })).body
        .totalCount,
    ).toBe(1);
    expect((await q.api.get('/customers/external-accounts')).body.totalCount).toBe(5);
    expect((await q.api.get('/customers/external-accounts', { query: { currency: 'USD' } })).body.totalCount).toBe(4);
    expect((await q.api.get('/platform/external-accounts')).body.totalCount).toBe(1);
    expect((await q.api.get('/platform/external-accounts', { query: { currency: 'EUR' } })).body.totalCount).toBe(0);
    await q.api.delete(`/customers/external-accounts/${made[0]}`);
    expect((await q.api.get('/customers/external-accounts', { query: { customerId: owner } })).body.totalCount).toBe(3);
    expectError(await q.api.get('/customers/external-accounts', { query: { limit: 0 } }), 400, 'INVALID_INPUT');
    expectError(
      await q.api.get('/customers/external-accounts', { query: { cursor: 'garbage' } }),
      400,
      'INVALID_INPUT',
    );
    // Another platform sees none of it.
    expect((await p.api.get('/customers/external-accounts', { query: { customerId: owner } })).body.totalCount).toBe(0);
    expectError(await p.api.get(`/customers/external-accounts/${made[1]}`), 404, 'REFERENCE_NOT_FOUND');
  });

  describe('Travel Rule wallets', () => {
    let eu: string;
    beforeAll(async () => {
      eu = await newCustomer({ region: 'DE', phoneNumber: '+4915112345678' });
    });
    const wallet = (sfx: string, extra: Record<string, unknown> = {}, info: Record<string, unknown> = {}) =>
      p.api.post('/customers/external-accounts', {
        customerId: eu,
        currency: 'USDC',
        accountInfo: { ...sample('POLYGON_WALLET').info(sfx), ...info },
        ...extra,
      });

    it('needs ownershipType for a self-custody wallet of an SCA-region customer', async () => {
      const res = await wallet('900');
      expectError(res, 400, 'INVALID_INPUT');
      expect(res.body.details.errors[0]).toMatchObject({
        field: 'ownershipType',
        constraint: { enum: ['FIRST_PARTY', 'THIRD_PARTY'] },
      });
    });

    it('needs beneficiary for a THIRD_PARTY wallet there', async () => {
      const res = await wallet('901', { ownershipType: 'THIRD_PARTY' });
      expect(res.body.details.errors[0].field).toBe('accountInfo.beneficiary');
      const ok = await wallet(
        '902',
        { ownershipType: 'THIRD_PARTY' },
        { beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bob Builder', countryOfResidence: 'FR' } },
      );
      expect(ok.status, ok.text).toBe(201);
      expect(ok.body).toMatchObject({
        status: 'ACTIVE',
        ownershipType: 'THIRD_PARTY',
        beneficiaryVerifiedData: { fullName: 'Bob Builder' },
      });
    });

    it('puts a FIRST_PARTY self-custody wallet in PENDING_OWNERSHIP_VERIFICATION, a custodial one in ACTIVE', async () => {
      const self = await wallet('903', { ownershipType: 'FIRST_PARTY' });
      expect(self.body).toMatchObject({
        status: 'PENDING_OWNERSHIP_VERIFICATION',
        ownershipType: 'FIRST_PARTY',
        beneficiaryVerifiedData: { fullName: 'Owner Person' },
      });
      expect((await getForPayment(p.platformId, self.body.id))?.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
      const custodial = await wallet('904', { ownershipType: 'FIRST_PARTY' }, { vaspName: 'Coinbase' });
      expect(custodial.body.status).toBe('ACTIVE');
      const us = await p.api.post('/customers/external-accounts', {
        customerId,
        currency: 'USDC',
        ownershipType: 'FIRST_PARTY',
        accountInfo: sample('POLYGON_WALLET').info('905'),
      });
      expect(us.body.status).toBe('ACTIVE');
      const platformOwn = await p.api.post('/platform/external-accounts', {
        currency: 'USDC',
        ownershipType: 'FIRST_PARTY',
        accountInfo: sample('POLYGON_WALLET').info('906'),
      });
      expect(platformOwn.body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
      // Creation is not a status change: no event.
      const events = await eventsOf(p.platformId, 'EXTERNAL_ACCOUNT.STATUS_UPDATED');
      expect(events.some((e) => e.body.data.id === self.body.id)).toBe(false);
    });
  });

  it('exposes payment facts for the money-movement code', async () => {
    const made = await createUsd('950');
    const acct = await getForPayment(p.platformId, made.body.id);
    expect(acct).toEqual({
      id: made.body.id,
      customerId,
      currency: 'USD',
      accountType: 'USD_ACCOUNT',
      primaryIdentifier: made.body.accountInfo.accountNumber,
      status: 'ACTIVE',
      accountInfo: made.body.accountInfo,
      beneficiary: made.body.accountInfo.beneficiary,
    });
    const plat = await p.api.post('/platform/external-accounts', {
      currency: 'BTC',
      accountInfo: sample('SPARK_WALLET').info('951'),
    });
    expect(await getForPayment(p.platformId, plat.body.id)).toMatchObject({
      customerId: null,
      beneficiary: null,
      primaryIdentifier: plat.body.accountInfo.address,
    });
    const q = await newPlatform();
    expect(await getForPayment(q.platformId, made.body.id)).toBeNull();
  });

  it('requires MANAGE to write and VIEW to read', async () => {
    const made = await createUsd('960');
    const viewer = await p.withPermissions('VIEW');
    expectError(
      await viewer.post('/customers/external-accounts', { customerId, currency: 'USD', accountInfo: usdInfo('961') }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await viewer.post('/platform/external-accounts', { currency: 'USD', accountInfo: usdInfo('962') }),
      403,
      'FORBIDDEN',
    );
    expectError(await viewer.delete(`/customers/external-accounts/${made.body.id}`), 403, 'FORBIDDEN');
    expectError(
      await viewer.post(`/customers/external-accounts/${made.body.id}/challenge`, { method: 'WALLET_SIGNATURE' }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await viewer.post(`/customers/external-accounts/${made.body.id}/verify`, { signature: '0x00' }),
      403,
      'FORBIDDEN',
    );
    expectError(await viewer.post(`/customers/external-accounts/${made.body.id}/trust`), 403, 'FORBIDDEN');
    expectError(
      await viewer.post(`/customers/external-accounts/${made.body.id}/untrust/confirm`, { code: '000000' }),
      403,
      'FORBIDDEN',
    );
    expect((await viewer.get(`/customers/external-accounts/${made.body.id}`)).status).toBe(200);
    expect((await viewer.get('/customers/external-accounts')).status).toBe(200);
    expect((await viewer.get('/platform/external-accounts')).status).toBe(200);
    const transact = await p.withPermissions('TRANSACT');
    expectError(await transact.get('/customers/external-accounts'), 403, 'FORBIDDEN');
    expectError(await transact.get(`/platform/external-accounts/${made.body.id}`), 403, 'FORBIDDEN');
    expectError(await p.api.get('/customers/external-accounts', { authorization: null }), 401, 'UNAUTHORIZED');
    expect((await p.api.get(`/customers/external-accounts/${made.body.id}`)).status).toBe(200);
  });
});
