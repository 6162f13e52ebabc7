import { errorText, log } from '../core/log';
import { newId } from '../core/ids';
import { addSeconds, now } from '../core/clock';
import { transaction, db } from '../core/db';
import { isSandbox } from '../core/mode';
import { DomainError, conflict, invalidInput, notFound, type FieldError } from '../core/errors';
import * as customers from '../customers/repository';
import { scaApplies } from '../sca/customer';
import * as sca from '../sca/codes';
import { hasTotp, proveTotpCode } from '../sca/proofs';
import type { BeneficiaryTrustConfirmRequest } from './schema';
import * as repo from './repository';

// Trusted beneficiaries (Strong Customer Authentication): a customer in an SCA region trusts an
// external account so later sends to it skip the per-payment ceremony, and untrusts it to undo
// that. Both take a start (which issues an SMS_OTP challenge) and a confirm (which checks the
// code). The code is an SCA code (lib/sca/codes.ts, on lib/codes), bound to the challenge. In sandbox it is the
// reference's fixed 123456 (000000, which this service documented before, is still accepted) and
// nothing is sent; otherwise a random code is sent by SMS after the challenge is committed.
export type TrustAction = 'TRUST' | 'UNTRUST';
const CUSTOMERS: repo.Owner = { kind: 'customers' };
const TTL_SECONDS = sca.TRUST_CODES.ttlSeconds;

async function accountAndCustomer(platformId: string, id: string) {
  const row = await repo.findLive(platformId, id, CUSTOMERS, db());
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `External account ${id}`);
  const customer = await customers.findById(platformId, row.customerId!, db());
  if (!customer || customer.deletedAt) throw notFound('USER_NOT_FOUND', `Customer ${row.customerId}`);
  if (!scaApplies(customer)) {
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
  const challengeId = newId('Challenge');
  const at = now();
  const expiresAt = addSeconds(at, TTL_SECONDS);
  const code = await transaction(async (tx) => {
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
        state: 'PENDING',
        expiresAt,
        createdAt: at,
      },
      tx,
    );
    return sca.issue(tx, sca.TRUST_CODES, { platformId, subject: id, binding: challengeId, ttlSeconds: TTL_SECONDS });
  });
  if (!sandbox) {
    try {
      await sca.sendSms(
        platformId,
        customer.phoneNumber!,
        `Your code to ${action === 'TRUST' ? 'trust' : 'stop trusting'} a payment beneficiary is ${code.code}. It expires in 5 minutes. Never share it.`,
        action === 'TRUST' ? 'SCA_TRUST_BENEFICIARY' : 'SCA_UNTRUST_BENEFICIARY',
      );
    } catch (err) {
      log().error({ err: errorText(err) }, 'SCA code delivery failed');
      await sca.discard(code.id);
      throw new DomainError('SERVICE_UNAVAILABLE', 'The SMS code could not be sent; start again');
    }
  }
  return {
    scaChallenge: {
      id: challengeId,
      expiresAt,
      factor: 'SMS_OTP' as const,
      availableFactors: ['SMS_OTP' as const, ...((await hasTotp(customer.id)) ? (['TOTP'] as const) : [])],
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
  const { customer } = await accountAndCustomer(platformId, id);
  if (body.code == null) {
    throw invalidInput('PASSKEY is not an available factor of this challenge: submit the SMS_OTP code', [
      { field: 'passkeyAssertion', message: 'not accepted: the challenge factor is SMS_OTP' },
    ]);
  }
  const code = body.code;
  // A customer with an authenticator app may answer with its code instead of the SMS one (checked
  // first, outside the transaction: it spends its time step whatever happens next).
  const byTotp = await proveTotpCode(customer.id, code);
  const at = now();
  // Refusals are returned, not thrown, so that a counted attempt commits; thrown afterwards.
  const outcome = await transaction(async (tx): Promise<Outcome> => {
    if (!(await repo.lockLive(platformId, id, CUSTOMERS, tx)))
      throw notFound('REFERENCE_NOT_FOUND', `External account ${id}`);
    const challenge = await repo.pendingTrust(id, tx);
    const start = action === 'TRUST' ? 'trust' : 'untrust';
    if (!challenge || challenge.action !== action) {
      return refused(
        'challengeId',
        `No ${start} challenge is outstanding for external account ${id}: start a new one`,
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
    const expired = () => refused('code', `The challenge expired: start a new ${start} challenge`, 'challenge expired');
    if (challenge.expiresAt.getTime() <= at.getTime()) {
      await repo.failTrust(challenge.id, at, tx);
      return expired();
    }
    const result = byTotp
      ? ({ ok: true } as const)
      : await sca.verify(sca.TRUST_CODES, { subject: id, binding: challenge.id, code }, tx);
    if (byTotp) await sca.retire(tx, sca.TRUST_CODES, id);
    if (!result.ok) {
      const dead = result.reason !== 'WRONG' || result.attemptsLeft === 0;
      if (dead) await repo.failTrust(challenge.id, at, tx);
      if (result.reason === 'EXPIRED') return expired();
      return refused(
        'code',
        dead ? `Too many wrong codes: start a new ${start} challenge` : 'The code is not valid',
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
