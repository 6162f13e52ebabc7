import { db, transaction, type Tx } from '../core/db';
import { DomainError, fieldError, notFound } from '../core/errors';
import { now } from '../core/clock';
import * as totp from '../sca/totp';
import { record } from './audit';
import { bumpGeneration } from './repository';
import { requireRole, type StaffActor } from './roles';

// A staff member's TOTP second factor (the end users' TOTP pieces of lib/sca/totp.ts: the same
// secret sealing, code check and recovery codes). Enrolment is two steps: a candidate secret is
// kept aside (shown as a QR code and as text) and becomes the factor only once a current code
// for it is typed, so a mistyped scan never locks anyone out. Each accepted time step is stored
// and a code of that step or an earlier one is refused, so a code seen over a shoulder is good
// once. The sandbox's fixed code is never accepted here: staff accounts guard the platform.

export type FactorCheck = 'ok' | 'wrong' | 'replayed';

/** Whether the user has a second factor (sign-in then asks for its code). */
export async function isEnrolled(staffUserId: string): Promise<boolean> {
  const user = await db().staffUser.findUnique({ where: { id: staffUserId }, select: { totpSecret: true } });
  return !!user?.totpSecret;
}

/** A candidate secret for the actor's own account: its otpauth:// URI and base32 text. */
export async function startEnrolment(actor: StaffActor): Promise<{ uri: string; secret: string }> {
  if (await isEnrolled(actor.staffUserId))
    throw new DomainError('INVALID_STATE_TRANSITION', 'A second factor is already set up; turn it off first');
  const fresh = totp.newSecret(actor.email);
  const parsed = totp.parseSecret(fresh.hex);
  if (!parsed) throw new Error('a new TOTP secret did not parse');
  await db().staffUser.update({
    where: { id: actor.staffUserId },
    data: { totpPendingSecret: totp.sealSecret(parsed), updatedAt: now() },
  });
  return { uri: fresh.uri, secret: fresh.base32 };
}

/** The time step of `code` for a sealed secret, or null when it is not a current code. */
function stepOf(sealed: string, code: string): bigint | null {
  const check = totp.checkCode(totp.openSecret(sealed), code.trim(), new Date());
  return check.ok && check.step !== null ? check.step : null;
}

/** Confirms the candidate secret with a current code; returns the recovery codes (shown once). */
export async function confirmEnrolment(actor: StaffActor, code: string): Promise<{ recoveryCodes: string[] }> {
  return transaction(async (tx) => {
    const user = await tx.staffUser.findUnique({ where: { id: actor.staffUserId } });
    if (!user?.totpPendingSecret)
      throw new DomainError('INVALID_STATE_TRANSITION', 'Start setting up the second factor first');
    const step = stepOf(user.totpPendingSecret, code);
    if (step === null) throw fieldError('code', 'That code is not the current one; try the next');
    const at = now();
    await tx.staffUser.update({
      where: { id: user.id },
      data: { totpSecret: user.totpPendingSecret, totpPendingSecret: null, totpLastStep: step, totpEnrolledAt: at },
    });
    const recoveryCodes = await replaceRecoveryCodes(user.id, tx);
    await record(actor, 'staff.second_factor.enrol', user.id, { email: user.email }, tx);
    return { recoveryCodes };
  });
}

/** A fresh set of recovery codes for the user; every earlier one (used or not) is gone. */
async function replaceRecoveryCodes(staffUserId: string, tx: Tx): Promise<string[]> {
  const recoveryCodes = totp.newRecoveryCodes();
  await tx.staffRecoveryCode.deleteMany({ where: { staffUserId } });
  await tx.staffRecoveryCode.createMany({
    data: recoveryCodes.map((c) => ({ staffUserId, codeHash: totp.recoveryHash(staffUserId, c) })),
  });
  return recoveryCodes;
}

/**
 * Checks a code (or a recovery code) of the user's factor and consumes it: the TOTP step is
 * raised only if it is later than the last one accepted (one conditional update, so two requests
 * with the same code cannot both pass), a recovery code is marked used the same way.
 */
export async function checkFactor(
  staffUserId: string,
  code: string,
  tx: Tx,
  opts: { totpOnly?: boolean } = {},
): Promise<FactorCheck> {
  const user = await tx.staffUser.findUnique({ where: { id: staffUserId } });
  if (!user?.totpSecret) return 'wrong';
  const step = /^\s*\d{6}\s*$/.test(code) ? stepOf(user.totpSecret, code) : null;
  if (step !== null) {
    const { count } = await tx.staffUser.updateMany({
      where: { id: staffUserId, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
      data: { totpLastStep: step },
    });
    return count === 1 ? 'ok' : 'replayed';
  }
  if (opts.totpOnly || !totp.normalizeRecoveryCode(code)) return 'wrong';
  const { count } = await tx.staffRecoveryCode.updateMany({
    where: { staffUserId, codeHash: totp.recoveryHash(staffUserId, code), usedAt: null },
    data: { usedAt: now() },
  });
  return count === 1 ? 'ok' : 'wrong';
}

async function clearFactor(staffUserId: string, tx: Tx) {
  await tx.staffUser.update({
    where: { id: staffUserId },
    data: { totpSecret: null, totpPendingSecret: null, totpLastStep: null, totpEnrolledAt: null, updatedAt: now() },
  });
  await tx.staffRecoveryCode.deleteMany({ where: { staffUserId } });
}

/** Turns off the actor's own factor; it takes a current code (or a recovery code). */
export async function disableOwn(actor: StaffActor, code: string): Promise<void> {
  await transaction(async (tx) => {
    const result = await checkFactor(actor.staffUserId, code, tx);
    if (result !== 'ok') throw fieldError('code', result === 'replayed' ? 'That code was used already' : 'Wrong code');
    await clearFactor(actor.staffUserId, tx);
    await record(actor, 'staff.second_factor.disable', actor.staffUserId, { email: actor.email }, tx);
  });
}

/** An admin removes another member's factor (a lost phone); they sign in with the password alone. */
export async function resetFor(actor: StaffActor, staffUserId: string): Promise<void> {
  requireRole(actor, 'admin');
  await transaction(async (tx) => {
    const user = await tx.staffUser.findFirst({ where: { platformId: actor.platformId, id: staffUserId } });
    if (!user) throw notFound('REFERENCE_NOT_FOUND', `Staff user ${staffUserId}`);
    await clearFactor(staffUserId, tx);
    // Whoever holds the lost phone may hold an open session too: all of them end.
    await bumpGeneration(staffUserId, tx);
    await record(actor, 'staff.second_factor.reset', staffUserId, { email: user.email }, tx);
  });
}

/**
 * New recovery codes for the actor's own factor (shown once; the old ones stop working). It takes
 * a current TOTP code, not a recovery code: whoever found one recovery code must not mint more.
 */
export async function regenerateRecoveryCodes(actor: StaffActor, code: string): Promise<{ recoveryCodes: string[] }> {
  const outcome = await transaction(async (tx) => {
    if (!(await tx.staffUser.findUnique({ where: { id: actor.staffUserId } }))?.totpSecret)
      throw new DomainError('INVALID_STATE_TRANSITION', 'Set up the second factor first');
    const result = await checkFactor(actor.staffUserId, code, tx, { totpOnly: true });
    if (result !== 'ok') return { refused: result };
    const recoveryCodes = await replaceRecoveryCodes(actor.staffUserId, tx);
    await record(actor, 'staff.second_factor.recovery_codes', actor.staffUserId, { email: actor.email }, tx);
    return { recoveryCodes };
  });
  if (outcome.recoveryCodes) return { recoveryCodes: outcome.recoveryCodes };
  // A wrong code is audited on its own (the attempt's transaction had nothing to keep).
  const reason = outcome.refused === 'replayed' ? 'replayed_code' : 'wrong_code';
  await transaction((tx) =>
    record(actor, 'staff.second_factor.recovery_codes.refused', actor.staffUserId, { email: actor.email, reason }, tx),
  );
  throw fieldError('code', reason === 'replayed_code' ? 'That code was used already; wait for the next' : 'Wrong code');
}

/** How many unused recovery codes the user has left (the account page shows it). */
export function recoveryCodesLeft(staffUserId: string): Promise<number> {
  return db().staffRecoveryCode.count({ where: { staffUserId, usedAt: null } });
}
