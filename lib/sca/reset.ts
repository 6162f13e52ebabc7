import { addSeconds, now } from '../core/clock';
import { transaction, db } from '../core/db';
import { DomainError, fieldError, invalidInput, notFound } from '../core/errors';
import { newId } from '../core/ids';
import * as customers from '../customers/repository';
import { rateLimited } from './codes';
import { lockScaCustomer, scaCustomer, smsAvailable } from './customer';
import { livenessCheck, type LivenessState } from './liveness';
import * as repo from './repository';

// Recovering a lost factor (2FA reset): start opens a liveness check, the caller polls the reset
// until liveness passes, then completes it, which clears the lost factor (TOTP, PASSKEY) so the
// customer can enroll again, or (SMS_OTP) makes the given mobile number the customer's verified
// phone. Completing also ends the customer's SCA sessions. At most 5 resets start per customer in
// 24 hours; the window of one reset is 30 minutes.
type Factor = 'SMS_OTP' | 'TOTP' | 'PASSKEY';
type Status = 'INITIATED' | 'PENDING_REVIEW' | 'LIVENESS_PASSED' | 'COMPLETED' | 'REJECTED' | 'EXPIRED';
const WINDOW_SECONDS = 30 * 60;
const MAX_PER_DAY = 5;
const DAY_SECONDS = 24 * 3600;
const OPEN: Status[] = ['INITIATED', 'PENDING_REVIEW', 'LIVENESS_PASSED'];
const FROM_LIVENESS: Record<LivenessState, Status> = {
  INITIATED: 'INITIATED',
  PENDING_REVIEW: 'PENDING_REVIEW',
  PASSED: 'LIVENESS_PASSED',
  REJECTED: 'REJECTED',
};

export async function start(platformId: string, customerId: string, factor: Factor) {
  const customer = await scaCustomer(platformId, customerId, db());
  const enrolled =
    factor === 'SMS_OTP' ? smsAvailable(customer) : !!(await repo.activeFactor(customerId, factor, db()));
  if (!enrolled) throw fieldError('factor', `${factor} is not an enrolled factor of customer ${customerId}`);
  const resetId = newId('TwoFactorReset');
  const at = now();
  return transaction(async (tx) => {
    await lockScaCustomer(platformId, customerId, tx);
    const recent = await repo.resetsSince(customerId, addSeconds(at, -DAY_SECONDS), tx);
    if (recent.length >= MAX_PER_DAY) {
      const wait = DAY_SECONDS - (at.getTime() - recent[0].createdAt.getTime()) / 1000;
      throw rateLimited(`At most ${MAX_PER_DAY} resets start per customer in 24 hours`, wait);
    }
    const session = await livenessCheck.get().start({ resetId, customer: { id: customerId, email: customer.email } });
    if (!session)
      throw new DomainError('SERVICE_UNAVAILABLE', 'No liveness provider is connected: factor resets are unavailable');
    const expiresAt = addSeconds(at, WINDOW_SECONDS);
    await repo.insertReset(
      {
        id: resetId,
        platformId,
        customerId,
        factor,
        status: 'INITIATED',
        livenessRef: session.ref,
        sandboxOutcome: session.sandboxOutcome ?? null,
        livenessCompletedAt: null,
        expiresAt,
        completedAt: null,
        createdAt: at,
        updatedAt: at,
      },
      tx,
    );
    return {
      resetId,
      livenessAccessToken: session.accessToken,
      verificationLink: session.verificationLink,
      expiresAt,
    };
  });
}

/** The reset with its status brought up to date: liveness progress, or the window closing. */
async function current(platformId: string, customerId: string, resetId: string): Promise<repo.ResetRow> {
  await scaCustomer(platformId, customerId, db());
  let row = await repo.findReset(customerId, resetId, db());
  if (!row) throw notFound('REFERENCE_NOT_FOUND', `Reset ${resetId}`);
  const at = now();
  let next: Status | null = null;
  if (OPEN.includes(row.status as Status) && row.expiresAt <= at) next = 'EXPIRED';
  else if (row.status === 'INITIATED' || row.status === 'PENDING_REVIEW') {
    const state = await livenessCheck.get().state(
      {
        ref: row.livenessRef,
        startedAt: row.createdAt,
        sandboxOutcome: row.sandboxOutcome,
        completedAt: row.livenessCompletedAt,
      },
      at,
    );
    if (FROM_LIVENESS[state] !== row.status) next = FROM_LIVENESS[state];
  }
  if (next && (await repo.moveReset(row.id, [row.status], { status: next, updatedAt: at }, db())))
    row = (await repo.findReset(customerId, resetId, db()))!;
  return row;
}

/** The platform a reset belongs to (the sandbox liveness page runs on that platform's clock). */
export async function platformOfReset(resetId: string): Promise<string | null> {
  return (await repo.findResetById(resetId, db()))?.platformId ?? null;
}

/** A reset's liveness check as the sandbox liveness page shows it; null when there is no such reset. */
export async function livenessOfReset(resetId: string) {
  const found = await repo.findResetById(resetId, db());
  if (!found) return null;
  const row = await current(found.platformId, found.customerId, resetId);
  return { factor: row.factor, status: row.status as Status, completed: row.livenessCompletedAt !== null };
}

/**
 * Sandbox: the end user completes the liveness check of reset `resetId` on the sandbox liveness
 * page its verificationLink opens. The check then reports its outcome (lib/sca/liveness.ts), and
 * the reset moves as its status poll moves it (current()). Null when there is no such reset.
 */
export async function completeSandboxLiveness(resetId: string) {
  const found = await repo.findResetById(resetId, db());
  if (!found) return null;
  await repo.markLivenessCompleted(found.id, ['INITIATED', 'PENDING_REVIEW'], now(), db());
  return livenessOfReset(resetId);
}

async function enrollmentStatus(row: repo.ResetRow): Promise<'PENDING' | 'COMPLETED' | null> {
  if (row.factor === 'SMS_OTP') return null;
  if (row.status !== 'COMPLETED' || !row.completedAt) return 'PENDING';
  const replacement = await repo.activeFactor(row.customerId, row.factor, db());
  return replacement && replacement.createdAt >= row.completedAt ? 'COMPLETED' : 'PENDING';
}

export async function status(platformId: string, customerId: string, resetId: string) {
  const row = await current(platformId, customerId, resetId);
  return {
    status: row.status,
    factor: row.factor,
    enrollmentStatus: await enrollmentStatus(row),
    expiresAt: row.expiresAt,
    completedAt: row.completedAt,
  };
}

export async function complete(
  platformId: string,
  customerId: string,
  resetId: string,
  body: { mobile?: { countryCode: string; number: string } } | undefined,
): Promise<void> {
  const row = await current(platformId, customerId, resetId);
  if (row.status !== 'LIVENESS_PASSED') {
    throw invalidInput(
      `Reset ${resetId} is ${row.status}: it can be completed only once liveness has passed (LIVENESS_PASSED)`,
    );
  }
  const phone = body?.mobile ? `${body.mobile.countryCode}${body.mobile.number}` : null;
  if (row.factor === 'SMS_OTP' && !phone) throw fieldError('mobile', 'mobile is required to complete an SMS_OTP reset');
  if (phone && !/^\+[1-9]\d{1,14}$/.test(phone))
    throw fieldError('mobile', 'mobile must form an E.164 number (at most 15 digits)');
  const at = now();
  await transaction(async (tx) => {
    const customer = await lockScaCustomer(platformId, customerId, tx);
    if (
      !(await repo.moveReset(row.id, ['LIVENESS_PASSED'], { status: 'COMPLETED', completedAt: at, updatedAt: at }, tx))
    )
      throw invalidInput(`Reset ${resetId} was completed by another request`);
    if (row.factor === 'SMS_OTP') {
      const cv = (customer.contactVerification ?? {}) as Record<string, string>;
      await customers.update(
        customerId,
        { phoneNumber: phone, contactVerification: { ...cv, phone: 'VERIFIED' }, updatedAt: at },
        tx,
      );
    } else await repo.deleteFactorsOfType(customerId, row.factor, tx);
    await repo.revokeSessions(customerId, at, tx);
  });
}
