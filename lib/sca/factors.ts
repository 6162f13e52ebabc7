import { addSeconds, now } from '../core/clock';
import { transaction, isUniqueViolation, db } from '../core/db';
import { DomainError, conflict, fieldError, invalidInput, notFound } from '../core/errors';
import { newId } from '../core/ids';
import { scaCustomer, lockScaCustomer, smsAvailable, type ScaCustomer } from './customer';
import * as passkeys from './passkeys';
import * as totp from './totp';
import * as repo from './repository';
import type { FactorConfirmRequest } from './schema';

// The customer's SCA factors: SMS_OTP is implicit (a verified phone number); TOTP and PASSKEY are
// enrolled in two steps (start, then confirm with the proof), one of each per customer. A passkey
// is deleted by its credential id; a lost TOTP is cleared by the liveness-gated reset.
const ENROLLMENT_SECONDS = 10 * 60;
const MAX_CONFIRM_ATTEMPTS = 5;

export type FactorView = { factor: 'SMS_OTP' | 'TOTP' | 'PASSKEY'; credentialId?: string; name?: string };

function maskedPhone(phone: string): string {
  return `SMS to •••${phone.slice(-4)}`;
}

export function present(row: repo.FactorRow): FactorView {
  return row.type === 'PASSKEY'
    ? { factor: 'PASSKEY', credentialId: row.credentialId!, ...(row.name ? { name: row.name } : {}) }
    : { factor: 'TOTP', ...(row.name ? { name: row.name } : {}) };
}

export function viewsOf(customer: ScaCustomer, rows: repo.FactorRow[]): FactorView[] {
  const sms: FactorView[] = smsAvailable(customer)
    ? [{ factor: 'SMS_OTP', name: maskedPhone(customer.phoneNumber!) }]
    : [];
  return [...sms, ...rows.map(present)];
}

export async function list(platformId: string, customerId: string) {
  const customer = await scaCustomer(platformId, customerId, db());
  return { factors: viewsOf(customer, await repo.activeFactors(customerId, db())) };
}

const labelOf = (c: ScaCustomer) => c.email ?? c.phoneNumber ?? c.platformCustomerId;

export async function startEnrollment(platformId: string, customerId: string, type: 'TOTP' | 'PASSKEY') {
  return transaction(async (tx) => {
    const customer = await lockScaCustomer(platformId, customerId, tx);
    const existing = await repo.activeFactor(customerId, type, tx);
    if (existing && type === 'PASSKEY') throw passkeys.passkeyAlreadyEnrolled(customerId);
    if (existing)
      throw conflict(`Customer ${customerId} already has a TOTP factor; a lost one is replaced through a factor reset`);
    const at = now();
    const base = {
      id: newId('ScaFactor'),
      platformId,
      customerId,
      type,
      state: 'PENDING',
      expiresAt: addSeconds(at, type === 'PASSKEY' ? passkeys.CEREMONY_SECONDS : ENROLLMENT_SECONDS),
      createdAt: at,
      updatedAt: at,
    };
    if (type === 'TOTP') {
      const secret = totp.newSecret(labelOf(customer));
      const parsed = totp.parseSecret(secret.hex)!;
      await repo.replacePending({ ...base, name: 'Authenticator app', secretSealed: totp.sealSecret(parsed) }, tx);
      return { type, secret: secret.hex, secretBase32Encoded: secret.base32, totpUri: secret.uri };
    }
    const options = await passkeys.registrationOptions({ id: customerId, label: labelOf(customer) }, []);
    await repo.replacePending({ ...base, name: 'Passkey', challenge: options.challenge }, tx);
    return { type, options, ...passkeys.allowed() };
  });
}

function noEnrollment(type: string): DomainError {
  return invalidInput(`No ${type} enrollment is in progress: start one by creating the factor`, [
    { field: 'type', message: 'no enrollment in progress' },
  ]);
}

async function pendingOf(customerId: string, type: 'TOTP' | 'PASSKEY') {
  const pending = await repo.pendingFactor(customerId, type, db());
  if (!pending || (pending.expiresAt && pending.expiresAt <= now())) throw noEnrollment(type);
  if (pending.attempts >= MAX_CONFIRM_ATTEMPTS)
    throw invalidInput(`Too many wrong confirmations: start the ${type} enrollment again`);
  return pending;
}

/** A wrong proof, counted against the enrollment (atomically; dead at the cap). */
async function wrongProof(pending: repo.FactorRow, field: string, message: string): Promise<never> {
  const attempts = await repo.countEnrollmentAttempt(pending.id, MAX_CONFIRM_ATTEMPTS, db());
  const left = attempts === null ? 0 : MAX_CONFIRM_ATTEMPTS - attempts;
  throw invalidInput(left > 0 ? `${message}; ${left} attempt(s) left` : `${message}; start the enrollment again`, [
    { field, message },
  ]);
}

async function activateOrConflict(pending: repo.FactorRow, data: Parameters<typeof repo.activate>[1]) {
  try {
    return await transaction(async (tx) => {
      if (!(await repo.activate(pending.id, { ...data, expiresAt: null, updatedAt: now() }, tx)))
        throw noEnrollment(pending.type);
      return true;
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    if (pending.type === 'PASSKEY') {
      const same = data.credentialId && (await repo.activeFactor(pending.customerId, 'PASSKEY', db()));
      if (same && same.credentialId !== data.credentialId) throw passkeys.passkeyAlreadyEnrolled(pending.customerId);
      throw new DomainError('PASSKEY_CREDENTIAL_ALREADY_EXISTS', 'This passkey credential is already registered');
    }
    throw conflict(`Customer ${pending.customerId} already has a ${pending.type} factor`);
  }
}

export async function confirmEnrollment(platformId: string, customerId: string, body: FactorConfirmRequest) {
  await scaCustomer(platformId, customerId, db());
  if (body.type === 'TOTP') {
    const pending = await pendingOf(customerId, 'TOTP');
    const given = totp.parseSecret(body.secret);
    const stored = totp.openSecret(pending.secretSealed!);
    if (!given || given.hex !== stored.hex)
      return wrongProof(pending, 'secret', 'secret is not the one issued by this enrollment');
    const check = totp.checkCode(stored, body.code, now());
    if (!check.ok) return wrongProof(pending, 'code', 'The code is not valid for this secret');
    const recoveryCodes = totp.newRecoveryCodes();
    await activateOrConflict(pending, {
      lastStep: check.step,
      recoveryCodes: recoveryCodes.map((c) => totp.recoveryHash(pending.id, c)),
    });
    return { type: 'TOTP' as const, recoveryCodes };
  }
  const pending = await pendingOf(customerId, 'PASSKEY');
  if (await repo.activeFactor(customerId, 'PASSKEY', db())) throw passkeys.passkeyAlreadyEnrolled(customerId);
  const verified = await passkeys
    .verifyRegistration(pending.challenge!, body.origin, body.credential)
    .catch(async (err: unknown) => {
      if (err instanceof DomainError && err.details && 'errors' in err.details && body.origin) {
        const field = (err.details.errors as { field: string }[])[0]?.field;
        if (field === 'credential') await repo.countEnrollmentAttempt(pending.id, MAX_CONFIRM_ATTEMPTS, db());
      }
      throw err;
    });
  await activateOrConflict(pending, { ...verified, challenge: null });
  const row = (await repo.activeFactor(customerId, 'PASSKEY', db()))!;
  return { type: 'PASSKEY' as const, factor: present(row) };
}

export async function remove(platformId: string, customerId: string, credentialId: string): Promise<void> {
  await scaCustomer(platformId, customerId, db());
  const row = await repo.passkeyByCredential(customerId, credentialId, db());
  if (!row || !(await repo.deleteFactor(row.id, db())))
    throw notFound('REFERENCE_NOT_FOUND', `SCA factor with credential id ${credentialId}`);
}

/** The enrollment request's type, refused when it names a factor that is not enrolled this way. */
export function enrollableType(type: string): 'TOTP' | 'PASSKEY' {
  if (type === 'TOTP' || type === 'PASSKEY') return type;
  throw fieldError('type', 'SMS_OTP is implicit (the verified phone number) and is not enrolled', {
    enum: ['TOTP', 'PASSKEY'],
  });
}
