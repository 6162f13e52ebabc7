import { errorText, log } from '../core/log';
import { addSeconds, now } from '../core/clock';
import { transaction, db } from '../core/db';
import { DomainError, fieldError, invalidInput } from '../core/errors';
import { newId } from '../core/ids';
import { LOGIN_CODES, discard, issue, sendSms, verify } from './codes';
import { lockScaCustomer, scaCustomer, smsAvailable, type ScaCustomer } from './customer';
import * as passkeys from './passkeys';
import * as totp from './totp';
import * as repo from './repository';
import type { LoginCompleteRequest } from './schema';
import { checkNotLocked, countFailure } from './security';
import { sessionSeconds } from './settings';

// SCA logins: the customer proves one factor (start, then complete) and an SCA session opens for
// sessionSeconds(). SMS_OTP sends a code bound to the login's challenge; TOTP needs no start state
// (the code comes from the app; an unused recovery code is accepted in its place); PASSKEY signs
// the WebAuthn challenge issued at start. Every wrong proof counts as a failed login (lockout,
// lib/sca/security.ts); a locked login is refused with 423 before any proof is looked at.
type Factor = 'SMS_OTP' | 'TOTP' | 'PASSKEY';
const LOGIN_SECONDS = 5 * 60;

function unknownFactor(factor: Factor, why: string): DomainError {
  return fieldError('factor', `${factor} is not available for this customer: ${why}`);
}

async function enrolled(customer: ScaCustomer, factor: Exclude<Factor, 'SMS_OTP'>) {
  const row = await repo.activeFactor(customer.id, factor, db());
  if (!row) throw unknownFactor(factor, `no ${factor} factor is enrolled`);
  return row;
}

export async function start(platformId: string, customerId: string, factor: Factor) {
  const customer = await scaCustomer(platformId, customerId, db());
  if (factor === 'TOTP') {
    await enrolled(customer, 'TOTP');
    return { factor };
  }
  if (factor === 'PASSKEY') {
    const passkey = await enrolled(customer, 'PASSKEY');
    const options = await passkeys.assertionOptions(storedPasskey(passkey));
    const at = now();
    await transaction(async (tx) => {
      await lockScaCustomer(platformId, customerId, tx);
      await repo.insertLoginChallenge(
        {
          id: newId('Challenge'),
          platformId,
          customerId,
          factor,
          challenge: options.challenge,
          state: 'PENDING',
          expiresAt: addSeconds(at, passkeys.CEREMONY_SECONDS),
          createdAt: at,
        },
        tx,
      );
    });
    return { factor, passkeyOptions: options, ...passkeys.allowed() };
  }
  if (!smsAvailable(customer)) throw unknownFactor(factor, 'the phone number is not verified');
  const at = now();
  const challengeId = newId('Challenge');
  const expiresAt = addSeconds(at, LOGIN_SECONDS);
  const code = await transaction(async (tx) => {
    await lockScaCustomer(platformId, customerId, tx);
    // Refused with 429 RATE_LIMITED and Retry-After within 30 s of the previous code.
    const issued = await issue(tx, LOGIN_CODES, { platformId, subject: customerId, binding: challengeId });
    await repo.insertLoginChallenge(
      { id: challengeId, platformId, customerId, factor, challenge: null, state: 'PENDING', expiresAt, createdAt: at },
      tx,
    );
    return issued;
  });
  try {
    await sendSms(
      platformId,
      customer.phoneNumber!,
      `Your sign-in code is ${code.code}. It expires in 5 minutes. Never share it.`,
      'SCA_LOGIN',
    );
  } catch (err) {
    log().error({ err: errorText(err) }, 'SCA login code delivery failed');
    await discard(code.id);
    throw new DomainError('SERVICE_UNAVAILABLE', 'The SMS code could not be sent; start the login again');
  }
  return { factor, challengeId, expiresAt };
}

export const storedPasskey = (row: repo.FactorRow): passkeys.StoredPasskey => ({
  credentialId: row.credentialId!,
  publicKey: row.publicKey!,
  counter: row.counter,
  transports: row.transports,
});

type Proof = { ok: true; challengeId?: string } | { ok: false; message: string; field: string };

async function proveSms(customerId: string, body: LoginCompleteRequest): Promise<Proof> {
  if (!body.challengeId) throw fieldError('challengeId', 'challengeId from the login start is required for SMS_OTP');
  if (body.code == null) throw fieldError('code', 'code is required for SMS_OTP');
  const result = await verify(LOGIN_CODES, { subject: customerId, binding: body.challengeId, code: body.code }, db());
  if (result.ok) return { ok: true, challengeId: body.challengeId };
  const message = {
    WRONG: 'The code is wrong',
    EXHAUSTED: 'Too many wrong codes: start the login again',
    EXPIRED: 'The code expired: start the login again',
    NONE: 'No SMS_OTP login with this challengeId is outstanding: start a new SCA login',
  }[result.reason];
  return { ok: false, message, field: result.reason === 'NONE' ? 'challengeId' : 'code' };
}

/** A TOTP code (each time step once), or an unused recovery code (each once). */
export async function proveTotp(factor: repo.FactorRow, code: string): Promise<boolean> {
  const check = totp.checkCode(totp.openSecret(factor.secretSealed!), code, now());
  if (check.ok) return check.step === null || (await repo.consumeTotpStep(factor.id, check.step, db()));
  if (!totp.normalizeRecoveryCode(code)) return false;
  return repo.consumeRecoveryCode(factor.id, totp.recoveryHash(factor.id, code), db());
}

async function provePasskey(customer: ScaCustomer, body: LoginCompleteRequest): Promise<Proof> {
  if (body.passkeyAssertion == null || body.origin == null)
    throw fieldError('passkeyAssertion', 'passkeyAssertion and origin are required for PASSKEY');
  const passkey = await enrolled(customer, 'PASSKEY');
  const challenge = await repo.pendingLoginChallenge(customer.id, 'PASSKEY', db());
  if (!challenge || challenge.expiresAt <= now())
    return { ok: false, field: 'passkeyAssertion', message: 'No PASSKEY login is outstanding: start one again' };
  const counter = await passkeys
    .verifyAssertion(challenge.challenge!, body.origin, body.passkeyAssertion, storedPasskey(passkey))
    .catch((err: unknown) => (err instanceof DomainError && err.code === 'INVALID_INPUT' ? err : Promise.reject(err)));
  if (counter instanceof DomainError) return { ok: false, field: 'passkeyAssertion', message: counter.message };
  if (!(await repo.advanceCounter(passkey.id, passkey.counter, counter, db())))
    return { ok: false, field: 'passkeyAssertion', message: 'The passkey was used concurrently; start again' };
  return { ok: true, challengeId: challenge.id };
}

export async function complete(platformId: string, customerId: string, body: LoginCompleteRequest) {
  const customer = await scaCustomer(platformId, customerId, db());
  await checkNotLocked(customerId, db());
  let proof: Proof;
  if (body.factor === 'SMS_OTP') proof = await proveSms(customerId, body);
  else if (body.factor === 'PASSKEY') proof = await provePasskey(customer, body);
  else {
    if (body.code == null) throw fieldError('code', 'code is required for TOTP');
    const ok = await proveTotp(await enrolled(customer, 'TOTP'), body.code);
    proof = ok ? { ok } : { ok, field: 'code', message: 'The code is not valid' };
  }
  if (!proof.ok) {
    const state = await countFailure(platformId, customerId, db());
    throw new DomainError('INVALID_INPUT', proof.message, {
      errors: [{ field: proof.field, message: proof.message }],
      failedAttempts: state.failedAttempts,
    });
  }
  const at = now();
  const expiresAt = addSeconds(at, sessionSeconds());
  await transaction(async (tx) => {
    if (proof.ok && proof.challengeId && !(await repo.useLoginChallenge(proof.challengeId, tx)))
      throw invalidInput('This login was already completed; start a new one');
    await repo.insertSession(
      {
        id: newId('ScaSession'),
        platformId,
        customerId,
        factor: body.factor,
        endUserIpAddress: body.endUserIpAddress,
        createdAt: at,
        expiresAt,
        revokedAt: null,
      },
      tx,
    );
  });
  return { status: 'SUCCESS', sessionExpiresAt: expiresAt };
}

/** Refuses (409 SCA_SESSION_REQUIRED) unless the customer has a live SCA login session. */
export async function requireSession(customerId: string): Promise<void> {
  if (!(await repo.liveSession(customerId, now(), db())))
    throw new DomainError(
      'SCA_SESSION_REQUIRED',
      `Customer ${customerId} has no live Strong Customer Authentication session: complete an SCA login (start, then complete), then retry`,
    );
}
