import { beforeAll, describe, expect, it } from 'vitest';
import { railsFor } from '@/lib/rails/catalog';
import { expectError, newPlatform, type TestPlatform, type Json } from '@/tests/support/api';
import { findInstitution, INSTITUTIONS } from './catalog';

const SPEC_BANK_CURRENCIES =
  'AED BDT BRL BWP CAD CNY COP DKK EGP EUR GBP GHS GTQ HKD HTG IDR INR JMD KES MWK MXN MYR NGN PHP PKR RWF SGD SLV THB TZS UGX USD VND XAF XOF ZAR ZMW'.split(
    ' ',
  );
const MOBILE_MONEY_CURRENCIES = ['KES', 'GHS', 'UGX', 'TZS', 'RWF', 'MWK', 'ZMW', 'XOF', 'XAF'];

type Row = Json;

describe('discoveries catalog', () => {
  it('covers every bank-account currency of the specification with several institutions', () => {
    for (const ccy of SPEC_BANK_CURRENCIES) {
      expect(INSTITUTIONS.filter((i) => i.currency === ccy).length, ccy).toBeGreaterThanOrEqual(3);
    }
  });

  it('reaches each institution only over rails the rail catalog offers for its currency', () => {
    for (const i of INSTITUTIONS) {
      const offered = railsFor(i.currency).map((r) => r.rail);
      expect(i.rails.length, i.bankName).toBeGreaterThan(0);
      for (const rail of i.rails) expect(offered, `${i.bankName} ${rail}`).toContain(rail);
    }
    // Mobile-money corridors list mobile-money operators; others list none.
    for (const ccy of MOBILE_MONEY_CURRENCIES) {
      expect(
        INSTITUTIONS.some((i) => i.currency === ccy && i.rails.includes('MOBILE_MONEY')),
        ccy,
      ).toBe(true);
    }
    expect(
      INSTITUTIONS.filter((i) => i.rails.includes('MOBILE_MONEY')).every((i) =>
        MOBILE_MONEY_CURRENCIES.includes(i.currency),
      ),
    ).toBe(true);
    expect(findInstitution('INR', 'hdfc bank')?.rails).toEqual(['UPI', 'NEFT', 'RTGS']);
    expect(findInstitution('MXN', 'Banorte')?.rails).toEqual(['SPEI']);
    expect(findInstitution('KES', 'M-PESA')?.rails).toEqual(['MOBILE_MONEY']);
    expect(findInstitution('KES', 'Equity Bank Kenya')?.rails).toEqual(['BANK_TRANSFER']);
    expect(findInstitution('USD', 'M-PESA')).toBeUndefined();
  });

  it('has one canonical bankName per institution', () => {
    const names = INSTITUTIONS.map((i) => i.bankName.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    for (const i of INSTITUTIONS) {
      expect(i.bankName.trim()).toBe(i.bankName);
      expect(i.country).toMatch(/^[A-Z]{2}$/);
    }
  });
});

describe('GET /discoveries', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await newPlatform();
  });

  it('returns every institution without filters', async () => {
    const res = await p.api.get('/discoveries');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toHaveLength(INSTITUTIONS.length);
    expect(res.body.data[0]).toEqual({
      bankName: INSTITUTIONS[0].bankName,
      displayName: INSTITUTIONS[0].displayName,
      country: INSTITUTIONS[0].country,
      currency: INSTITUTIONS[0].currency,
    });
    expect(Object.keys(res.body.data[0]).sort()).toEqual(['bankName', 'country', 'currency', 'displayName']);
  });

  it('filters by country and currency together (the reference example: PH / PHP)', async () => {
    const res = await p.api.get('/discoveries', { query: { country: 'PH', currency: 'PHP' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toContainEqual({
      bankName: 'BDO Unibank',
      displayName: 'BDO Unibank',
      country: 'PH',
      currency: 'PHP',
    });
    expect(res.body.data).toContainEqual({
      bankName: 'BPI',
      displayName: 'Bank of the Philippine Islands',
      country: 'PH',
      currency: 'PHP',
    });
    expect(res.body.data.every((r: Row) => r.country === 'PH' && r.currency === 'PHP')).toBe(true);
  });

  it('filters by country alone and by currency alone', async () => {
    const kenya = await p.api.get('/discoveries', { query: { country: 'ke' } });
    expect(kenya.body.data.map((r: Row) => r.bankName)).toEqual(
      expect.arrayContaining(['M-PESA', 'Airtel Money Kenya', 'Equity Bank Kenya']),
    );
    expect(kenya.body.data.every((r: Row) => r.country === 'KE' && r.currency === 'KES')).toBe(true);

    const xof = await p.api.get('/discoveries', { query: { currency: 'XOF' } });
    const countries = new Set(xof.body.data.map((r: Row) => r.country));
    expect(countries).toEqual(new Set(['SN', 'CI', 'BJ', 'BF', 'ML', 'TG']));
    expect(xof.body.data.map((r: Row) => r.bankName)).toContain('Wave Senegal');

    const eur = await p.api.get('/discoveries', { query: { currency: 'EUR' } });
    expect(new Set(eur.body.data.map((r: Row) => r.country)).size).toBeGreaterThanOrEqual(8);
    const germany = await p.api.get('/discoveries', { query: { country: 'DE', currency: 'EUR' } });
    expect(germany.body.data.map((r: Row) => r.bankName)).toEqual(['Deutsche Bank', 'Commerzbank', 'N26']);
  });

  it('answers an empty list for corridors it has nothing for', async () => {
    expect((await p.api.get('/discoveries', { query: { country: 'FJ' } })).body.data).toEqual([]);
    expect((await p.api.get('/discoveries', { query: { country: 'US', currency: 'EUR' } })).body.data).toEqual([]);
    expect((await p.api.get('/discoveries', { query: { currency: 'USDC' } })).body.data).toEqual([]);
  });

  it('refuses malformed or unassigned country codes and unknown currencies', async () => {
    for (const country of ['USA', 'U1', 'QQ', 'ZZ']) {
      const res = await p.api.get('/discoveries', { query: { country } });
      expectError(res, 400, 'INVALID_INPUT');
      expect(res.body.details.errors[0]).toMatchObject({
        field: 'country',
        constraint: { format: 'iso3166-1-alpha-2' },
      });
    }
    // An empty parameter is refused as empty (never read as "no filter").
    const empty = await p.api.get('/discoveries', { query: { country: '' } });
    expectError(empty, 400, 'INVALID_INPUT');
    expect(empty.body.details.errors[0]).toMatchObject({ field: 'country', constraint: { minLength: 1 } });
    const cur = await p.api.get('/discoveries', { query: { currency: 'XYZ' } });
    expectError(cur, 400, 'INVALID_CURRENCY');
    expect(cur.body.details.errors[0].field).toBe('currency');
  });

  it('needs the VIEW permission', async () => {
    expect((await (await p.withPermissions('VIEW')).get('/discoveries')).status).toBe(200);
    expectError(await (await p.withPermissions('TRANSACT')).get('/discoveries'), 403, 'FORBIDDEN');
  });
});
