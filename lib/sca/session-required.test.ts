import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { advanceClock } from './testing';
import { customerWithAccounts, externalAccount, type Holder } from '@/tests/support/money';

// 409 SCA_SESSION_REQUIRED: with CORRIDOR_SCA_SESSION_REQUIRED=1, authorizing a quote's challenge
// also needs a live SCA login session of the customer (distinct from 401, the platform's own
// credentials); a login opens one, its expiry ends it.
describe('SCA session required for payment authorization', () => {
  let p: TestPlatform;
  let eu: Holder;
  let dest: string;
  const phone = '+4915199887766';
  beforeAll(async () => {
    p = await newPlatform();
    eu = await customerWithAccounts(p, 'Sina Session', ['EUR', 'USD'], { region: 'DE', phoneNumber: phone });
    dest = await externalAccount(p, eu.customerId, 'MXN', '135');
    expect((await p.api.post(`/customers/${eu.customerId}/verify-phone`)).status).toBe(204);
    expect((await p.api.post(`/customers/${eu.customerId}/verify-phone/confirm`, { code: '123456' })).status).toBe(200);
  });
  afterEach(() => {
    delete process.env.CORRIDOR_SCA_SESSION_REQUIRED;
  });

  const quote = async () => {
    const q = await p.api.post('/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'EUR', customerId: eu.customerId },
      destination: { destinationType: 'ACCOUNT', accountId: dest },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 5000,
    });
    expect(q.status, q.text).toBe(202);
    return q.body.id as string;
  };
  const login = async () => {
    const q = { query: { customerId: eu.customerId } };
    const s = await p.api.post('/sca/login/start', { factor: 'SMS_OTP' }, q);
    expect(s.status, s.text).toBe(200);
    const done = await p.api.post(
      '/sca/login/complete',
      { factor: 'SMS_OTP', challengeId: s.body.challengeId, code: '123456', endUserIpAddress: '198.51.100.7' },
      q,
    );
    expect(done.status, done.text).toBe(200);
    return done.body.sessionExpiresAt as string;
  };

  it('answers 409 SCA_SESSION_REQUIRED without a session, authorizes with one, and again after it expires', async () => {
    process.env.CORRIDOR_SCA_SESSION_REQUIRED = '1';
    const first = await quote();
    const refused = await p.api.post(`/quotes/${first}/authorize`, { code: '123456' });
    expectError(refused, 409, 'SCA_SESSION_REQUIRED');
    expect((await p.api.get(`/quotes/${first}`)).body.status).toBe('PENDING_AUTHORIZATION');

    await login();
    const ok = await p.api.post(`/quotes/${first}/authorize`, { code: '123456' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.status).toBe('PENDING');

    await advanceClock(p, 30 * 60 + 1);
    const second = await quote();
    expectError(await p.api.post(`/quotes/${second}/authorize`, { code: '123456' }), 409, 'SCA_SESSION_REQUIRED');
    // A password reset revokes the session too.
    await login();
    await p.api.post(
      '/sca/record-event',
      { eventType: 'RESET_PASSWORD_COMPLETED' },
      { query: { customerId: eu.customerId } },
    );
    expectError(await p.api.post(`/quotes/${second}/authorize`, { code: '123456' }), 409, 'SCA_SESSION_REQUIRED');
  });

  it('is off by default: the per-transaction challenge alone authorizes', async () => {
    const id = await quote();
    expect((await p.api.post(`/quotes/${id}/authorize`, { code: '123456' })).status).toBe(200);
  });
});
