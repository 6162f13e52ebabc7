import { newId } from '../core/ids';
import { addSeconds, now } from '../core/clock';
import { transaction } from '../core/db';
import { isSandbox } from '../core/mode';
import { DomainError, conflict, invalidInput, notFound, type FieldError } from '../core/errors';
import * as customers from '../customers/repository';
import { isScaRegion } from '../customers/regions';
import { sendMessage } from '../notify/sender';
import { codeMatches as storedCodeMatches, hashCode, randomCode } from '../contact-verification/codes';
import type { BeneficiaryTrustConfirmRequest } from './schema';
import * as repo from './repository';

// Trusted beneficiaries (Strong Customer Authentication): a customer in an SCA region trusts an
// external account so later sends to it skip the per-payment ceremony, and untrusts it to undo
// that. Both take a start (which issues an SMS_OTP challenge) and a confirm (which checks the
// code). In sandbox the code is the fixed 000000 (the reference documents 123456; both work) and
// nothing is sent; otherwise a random code is stored only as a hash and sent by SMS after the
// challenge is committed.
export type TrustAction = 'TRUST' | 'UNTRUST';
const CUSTOMERS: repo.Owner = { kind: 'customers' };
const TTL_SECONDS = 5 * 60;
const MAX_ATTEMPTS = 5;
const SANDBOX_CODES = ['000000', '123456'];

// Sandbox challenges store no hash (codeHash null) and accept the fixed codes; otherwise the code
// is checked against its salted scrypt hash (lib/contact-verification/codes.ts).
async function codeMatches(challenge: repo.TrustChallengeRow, code: string): Promise<boolean> {
  if (challenge.codeHash === null) return SANDBOX_CODES.includes(code);
  return storedCodeMatches(code, challenge.codeHash);
}

async function accountAndCustomer(platformId: string, id: string) {
  const row = await repo.findLive(platformId, id, CUSTOMERS);
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `External account ${id}`);
  const customer = await customers.findById(platformId, row.customerId!);
  if (!customer || customer.deletedAt) throw notFound('USER_NOT_FOUND', `Customer ${row.customerId}`);
  if (!isScaRegion(customer.region)) {
    throw conflict(
      `Strong Customer Authentication is not required for customer ${customer.id} (region ${customer.region ?? 'not set'}): beneficiary trust applies only in SCA regions`,
    );
  }
  return { row, customer };
}

export async function start(platformId: string, id: string, action: TrustAction) {
  const { row, customer } = await accountAndCustomer(platformId, id);
  if (action === 'TRUST' && row.trustedAt) throw conflict(`External account ${id} is already a trusted beneficiary`);
  if (action === 'UNTRUST' && !row.trustedAt) throw conflict(`External account ${id} is not a trusted beneficiary`);
  const sandbox = isSandbox();
  if (!sandbox && !customer.phoneNumber) {
    throw new DomainError(
      'MISSING_MANDATORY_USER_INFO',
      `Customer ${customer.id} has no phone number to receive the SMS_OTP code`,
    );
  }
  const code = sandbox ? null : randomCode();
  const codeHash = code ? await hashCode(code) : null;
  const challengeId = newId('Challenge');
  const at = now();
  const expiresAt = addSeconds(at, TTL_SECONDS);
  await transaction(async (tx) => {
    if (!(await repo.lockLive(platformId, id, CUSTOMERS, tx)))
      throw notFound('REFERENCE_NOT_FOUND', `External account ${id}`);
    await repo.abandonPendingTrust(id, at, tx);
    await repo.insertTrustChallenge(
      {
        id: challengeId,
        platformId,
        externalAccountId: id,
        customerId: customer.id,
        action,
        factor: 'SMS_OTP',
        codeHash,
        state: 'PENDING',
        expiresAt,
        createdAt: at,
      },
      tx,
    );
  });
  if (code) {
    try {
      await sendMessage({
        platformId,
        channel: 'SMS',
        to: customer.phoneNumber!,
        text: `Your code to ${action === 'TRUST' ? 'trust' : 'stop trusting'} a payment beneficiary is ${code}. It expires in 5 minutes. Never share it.`,
        purpose: action === 'TRUST' ? 'SCA_TRUST_BENEFICIARY' : 'SCA_UNTRUST_BENEFICIARY',
      });
    } catch (err) {
      console.error('[corridor] SCA code delivery failed:', err instanceof Error ? err.message : err);
      throw new DomainError('SERVICE_UNAVAILABLE', 'The SMS code could not be sent; start again');
    }
  }
  return {
    scaChallenge: {
      id: challengeId,
      expiresAt,
      factor: 'SMS_OTP' as const,
      availableFactors: ['SMS_OTP' as const],
      purpose: action === 'TRUST' ? 'TRUST_BENEFICIARY' : 'UNTRUST_BENEFICIARY',
    },
  };
}

type Outcome = { ok: true } | { ok: false; message: string; errors: FieldError[] };
const refused = (field: string, message: string, detail: string): Outcome => ({
  ok: false,
  message,
  errors: [{ field, message: detail }],
});

export async function confirm(
  platformId: string,
  id: string,
  action: TrustAction,
  body: BeneficiaryTrustConfirmRequest,
): Promise<{ trusted: boolean }> {
  await accountAndCustomer(platformId, id);
  if (body.code == null) {
    throw invalidInput('PASSKEY is not an available factor of this challenge: submit the SMS_OTP code', [
      { field: 'passkeyAssertion', message: 'not accepted: the challenge factor is SMS_OTP' },
    ]);
  }
  const code = body.code;
  const at = now();
  // scrypt runs before the transaction (a transaction must not wait on anything but the
  // database), against the challenge outstanding now; inside, the locked challenge must be that one.
  const candidate = await repo.pendingTrust(id);
  const matches = candidate ? await codeMatches(candidate, code) : false;
  // Failed attempts are committed (they count toward the limit); the refusal is thrown afterwards.
  const outcome = await transaction(async (tx): Promise<Outcome> => {
    if (!(await repo.lockLive(platformId, id, CUSTOMERS, tx)))
      throw notFound('REFERENCE_NOT_FOUND', `External account ${id}`);
    const challenge = await repo.pendingTrust(id, tx);
    const start = action === 'TRUST' ? 'trust' : 'untrust';
    if (!challenge || challenge.action !== action) {
      return refused(
        'challengeId',
        `No ${start} challenge is outstanding for external account ${id}: start one with POST .../${start}`,
        'no outstanding challenge',
      );
    }
    if (body.challengeId != null && body.challengeId !== challenge.id) {
      return refused(
        'challengeId',
        'challengeId is not the outstanding challenge of this beneficiary',
        'does not match the outstanding challenge',
      );
    }
    if (challenge.expiresAt.getTime() <= at.getTime()) {
      await repo.recordTrustAttempt(challenge.id, true, at, tx);
      return refused('code', `The challenge expired: start again with POST .../${start}`, 'challenge expired');
    }
    if (!matches || challenge.id !== candidate?.id) {
      const burnt = challenge.attempts + 1 >= MAX_ATTEMPTS;
      await repo.recordTrustAttempt(challenge.id, burnt, at, tx);
      return refused(
        'code',
        burnt ? `Too many wrong codes: start again with POST .../${start}` : 'The code is not valid',
        'is not the code that was sent',
      );
    }
    if (!(await repo.confirmTrust(challenge.id, at, tx)))
      return refused('challengeId', 'The challenge was completed by another request', 'already completed');
    await repo.update(id, { trustedAt: action === 'TRUST' ? at : null, updatedAt: at }, tx);
    return { ok: true };
  });
  if (!outcome.ok) throw invalidInput(outcome.message, outcome.errors);
  return { trusted: action === 'TRUST' };
}
