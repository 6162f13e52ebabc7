import { beforeAll, describe, expect, it } from 'vitest';
import { eventsOf } from '@/lib/events/outbox';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { getForPayment } from './service';
import { sample } from './testing';
import { db } from '@/lib/core/db';

let p: TestPlatform;
let customerId: string;
const newCustomer = async (extra: Record<string, unknown> = {}) =>
  (await p.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Owner Person', region: 'US', ...extra }))
    .body.id as string;

beforeAll(async () => {
  p = await newPlatform();
  customerId = await newCustomer();
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
    expect((await getForPayment(p.platformId, self.body.id, db()))?.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
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
