import { z } from 'zod';
import { clockOf, now } from '../core/clock';
import { isUniqueViolation, transaction, type Tx, db } from '../core/db';
import { DomainError, fieldError, notFound } from '../core/errors';
import { newId } from '../core/ids';
import { pageOf } from '../core/list';
import * as platforms from '../platform/repository';
import { record, recordSignIn } from './audit';
import { decoyHash, generatePassword, hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './password';
import * as repo from './repository';
import { checkFactor } from './second-factor';
import { claimAttempt, releaseClaim, signedIn } from './sign-in-limits';
import { isRole, requireRole, type StaffActor, type StaffRole } from './roles';

// Staff accounts of the admin console and their sign-in. Sign-in is by email and password; a
// session lives SESSION_HOURS and ends early when it is signed out, when its user is disabled or
// when the user's sessions are reset. Attempts are limited per source address and email before
// any password is checked (lib/staff/sign-in-limits.ts), and whether an email exists shows
// neither in the answer nor in its timing. Every attempt, allowed or refused, is in the audit trail.
export const SESSION_HOURS = 8;

export interface StaffUser {
  id: string;
  email: string;
  role: StaffRole;
  createdAt: Date;
  disabledAt: Date | null;
  /** Whether sign-in asks for a TOTP code after the password (lib/staff/second-factor.ts). */
  secondFactor: boolean;
}

const present = (r: repo.StaffUserRow): StaffUser => ({
  id: r.id,
  email: r.email,
  role: r.role as StaffRole,
  createdAt: r.createdAt,
  disabledAt: r.disabledAt,
  secondFactor: r.totpSecret !== null,
});

const emailSchema = z.email().max(254);
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The password policy of every password a person sets (invitations, self-service change). */
export function checkPassword(password: string, field = 'password'): void {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > 200)
    throw fieldError(field, `password must be ${MIN_PASSWORD_LENGTH} to 200 characters`, {
      minLength: MIN_PASSWORD_LENGTH,
      maxLength: 200,
    });
}

function checkNewUser(email: string, role: string, password: string): void {
  if (!emailSchema.safeParse(email).success) throw fieldError('email', 'email must be an email address');
  if (!isRole(role))
    throw fieldError('role', 'role must be viewer, operator or admin', { enum: ['viewer', 'operator', 'admin'] });
  checkPassword(password);
}

/** Creates a staff user; without a password one is generated and returned (shown once). */
export async function createUser(
  platformId: string,
  input: { email: string; role: string; password?: string },
  tx: Tx,
): Promise<{ user: StaffUser; password?: string }> {
  const email = normalizeEmail(input.email);
  const password = input.password ?? generatePassword();
  checkNewUser(email, input.role, password);
  const at = now();
  try {
    const row = await repo.insertUser(
      {
        id: newId('StaffUser'),
        platformId,
        email,
        passwordHash: await hashPassword(password),
        role: input.role,
        createdAt: at,
        updatedAt: at,
        disabledAt: null,
        sessionGeneration: 0,
        totpSecret: null,
        totpPendingSecret: null,
        totpLastStep: null,
        totpEnrolledAt: null,
      },
      tx,
    );
    return { user: present(row), ...(input.password ? {} : { password }) };
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('CONFLICT', `A staff user with the email ${email} exists`);
    throw err;
  }
}

/** Adds a user as `actor` (admins only), recorded in the audit trail. */
export async function addUser(actor: StaffActor, input: { email: string; role: string; password?: string }) {
  requireRole(actor, 'admin');
  // The user and its audit entry commit together.
  return transaction(async (tx) => {
    const created = await createUser(actor.platformId, input, tx);
    await record(actor, 'staff.create', created.user.id, { email: created.user.email, role: created.user.role }, tx);
    return created;
  });
}

export async function listUsers(platformId: string, limit: number, cursor?: string) {
  const listed = await repo.listUsers(platformId, { limit, cursor, filters: {} });
  return pageOf(listed, present);
}

export function countUsers(platformId: string): Promise<number> {
  return repo.countUsers(platformId);
}

const wrongCredentials = () => new DomainError('UNAUTHORIZED', 'Wrong email or password');

const tooManyAttempts = (seconds: number) =>
  new DomainError(
    'RATE_LIMITED',
    `Too many sign-in attempts; try again in ${seconds} s`,
    { retryAfterSeconds: seconds },
    { retryAfterSeconds: seconds },
  );

/** Where an attempt is recorded: its account's platform, or the installation's first for an email naming none. */
async function recordAttempt(
  email: string,
  user: repo.StaffUserRow | null,
  address: string,
  refusal: Record<string, unknown> | null,
): Promise<void> {
  const platformId = user?.platformId ?? (await platforms.findFirst())?.id ?? '';
  await recordSignIn({
    platformId,
    staffUserId: user?.id ?? '',
    email: emailSchema.safeParse(email).success ? email : '(not an email address)',
    refused: refusal !== null,
    details: { address, ...refusal },
  });
}

/** The challenge of a sign-in waiting for its second factor: how long its id stays good. */
export const CHALLENGE_MINUTES = 5;

/**
 * Thrown by signIn when the password was right and the account has a second factor: no session
 * exists yet; completeSignIn takes the challenge with its code.
 */
export class SecondFactorRequired extends Error {
  constructor(readonly challengeId: string) {
    super('The second factor is required');
  }
}

async function openSession(user: repo.StaffUserRow, address: string, at: Date) {
  const session = await repo.insertSession({
    id: newId('StaffSession'),
    staffUserId: user.id,
    createdAt: at,
    expiresAt: new Date(at.getTime() + SESSION_HOURS * 3600_000),
    revokedAt: null,
    // Read with the password: a bump landing between that read and this insert leaves the new
    // session on the old generation, refused — the safe side.
    generation: user.sessionGeneration,
  });
  await recordAttempt(user.email, user, address, null);
  return { sessionId: session.id, user: present(user) };
}

/**
 * Checks an email and password from `address` (the client's, lib/http/client-address.ts) and
 * opens a session; for an account with a second factor it throws SecondFactorRequired with a
 * challenge for its code. Refusals: RATE_LIMITED (a sign-in limit is spent; the password was not checked) and
 * UNAUTHORIZED (wrong email or password, or a disabled account — the same answer).
 */
export async function signIn(
  emailInput: string,
  password: string,
  address = 'unknown',
): Promise<{ sessionId: string; user: StaffUser }> {
  const email = normalizeEmail(emailInput);
  const at = now();
  const user = await repo.findUserByEmail(email);
  const claim = await claimAttempt(email, address, user?.id ?? null, at);
  if (!claim.allowed) {
    const { retryAfterSeconds, limit } = claim;
    await recordAttempt(email, user, address, { reason: 'throttled', limit, retryAfterSeconds });
    throw tooManyAttempts(retryAfterSeconds);
  }
  const matches = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
  if (!user || !matches || user.disabledAt) {
    const reason = !user ? 'unknown_email' : !matches ? 'wrong_password' : 'disabled';
    await recordAttempt(email, user, address, { reason });
    throw wrongCredentials();
  }
  if (user.totpSecret) {
    // The right password was no guess: its slot is given back, but the pair is not cleared nor
    // the source remembered until the code is right too (a stolen password earns nothing).
    await releaseClaim(claim);
    const challenge = await repo.insertChallenge({
      id: newId('StaffSignInChallenge'),
      staffUserId: user.id,
      address,
      createdAt: at,
      expiresAt: new Date(at.getTime() + CHALLENGE_MINUTES * 60_000),
      usedAt: null,
    });
    throw new SecondFactorRequired(challenge.id);
  }
  await signedIn(claim, user.id, at);
  return openSession(user, address, at);
}

/**
 * The second step of a sign-in: the code (or a recovery code) for the challenge signIn returned.
 * Each code is an attempt under the same limits as passwords, refused unchecked when one is spent;
 * a wrong or replayed code is UNAUTHORIZED and audited with its reason. The challenge is used up
 * by the session it opens; an unknown, expired or used one is UNAUTHORIZED.
 */
export async function completeSignIn(challengeId: string, code: string, address = 'unknown') {
  const at = now();
  const found = await repo.findChallenge(challengeId);
  const user = found && (await repo.findUserById(found.staffUserId));
  if (!found || !user || found.usedAt || found.expiresAt <= at || user.disabledAt || !user.totpSecret)
    throw new DomainError('UNAUTHORIZED', 'This sign-in has expired; start again with your password');
  const claim = await claimAttempt(user.email, address, user.id, at);
  if (!claim.allowed) {
    const { retryAfterSeconds, limit } = claim;
    await recordAttempt(user.email, user, address, {
      reason: 'throttled',
      step: 'second_factor',
      limit,
      retryAfterSeconds,
    });
    throw tooManyAttempts(retryAfterSeconds);
  }
  const result = await checkFactor(user.id, code, db());
  if (result !== 'ok') {
    await recordAttempt(user.email, user, address, { reason: result === 'replayed' ? 'replayed_code' : 'wrong_code' });
    throw new DomainError(
      'UNAUTHORIZED',
      result === 'replayed' ? 'That code was used already; wait for the next' : 'Wrong code',
    );
  }
  if (!(await repo.useChallenge(challengeId, at)))
    throw new DomainError('UNAUTHORIZED', 'This sign-in has expired; start again with your password');
  await signedIn(claim, user.id, at);
  return openSession(user, address, at);
}

/**
 * The actor of a session that is still good, or null: unknown, expired, signed out, its user
 * disabled, or opened under an older session generation than its user's (repository.bumpGeneration).
 */
export async function actorOf(sessionId: string): Promise<StaffActor | null> {
  const found = await repo.findSession(sessionId);
  const at = new Date();
  if (!found) return null;
  const { session, user } = found;
  if (session.revokedAt || session.expiresAt <= at || user.disabledAt || session.generation !== user.sessionGeneration)
    return null;
  const platform = await platforms.findById(user.platformId, db());
  if (!platform) return null;
  return {
    kind: 'staff',
    platformId: user.platformId,
    staffUserId: user.id,
    email: user.email,
    role: user.role as StaffRole,
    staffSessionId: session.id,
    ...clockOf(platform),
  };
}

export async function signOut(sessionId: string): Promise<void> {
  await repo.revokeSession(sessionId, new Date());
}

async function changeUser(
  actor: StaffActor,
  userId: string,
  change: { role?: StaffRole; disabled?: boolean },
): Promise<StaffUser> {
  requireRole(actor, 'admin');
  const updated = await transaction(async (tx) => {
    await repo.lockUsers(actor.platformId, tx);
    const user = await repo.findUser(actor.platformId, userId, tx);
    if (!user) throw notFound('REFERENCE_NOT_FOUND', `Staff user ${userId}`);
    const losesAdmin = user.role === 'admin' && ((change.role && change.role !== 'admin') || change.disabled);
    if (losesAdmin && (await repo.countOtherActiveAdmins(actor.platformId, userId, tx)) === 0)
      throw new DomainError('INVALID_STATE_TRANSITION', 'The platform must keep at least one active admin');
    const at = now();
    const row = await repo.updateUser(
      userId,
      {
        ...(change.role ? { role: change.role } : {}),
        ...(change.disabled !== undefined ? { disabledAt: change.disabled ? at : null } : {}),
        updatedAt: at,
      },
      tx,
    );
    // Sessions opened before a disabling stay dead if the account is enabled again; a role
    // change signs the member out too, so nobody keeps working on a page the old role opened.
    if (change.role || change.disabled) await repo.bumpGeneration(userId, tx);
    // In the same transaction: the change and its audit entry commit together.
    const action = change.role ? 'staff.role' : change.disabled ? 'staff.disable' : 'staff.enable';
    await record(actor, action, userId, { email: row.email, ...(change.role ? { role: change.role } : {}) }, tx);
    return row;
  });
  return present(updated);
}

export function setRole(actor: StaffActor, userId: string, role: string): Promise<StaffUser> {
  if (!isRole(role)) throw fieldError('role', 'role must be viewer, operator or admin');
  return changeUser(actor, userId, { role });
}

export function setDisabled(actor: StaffActor, userId: string, disabled: boolean): Promise<StaffUser> {
  return changeUser(actor, userId, { disabled });
}

/**
 * "Sign out everywhere": every session of the actor's account, this one included, is refused
 * from its next request (a new session generation), audited.
 */
export async function signOutEverywhere(actor: StaffActor): Promise<void> {
  await transaction(async (tx) => {
    const generation = await repo.bumpGeneration(actor.staffUserId, tx);
    await record(actor, 'staff.sessions.revoke', actor.staffUserId, { email: actor.email, generation }, tx);
  });
}

/**
 * The actor's own password change. It takes the current password and, when the account has a
 * second factor, a current TOTP code (a recovery code does not do: it is for a lost phone, not
 * for changing credentials), so a console left open is not enough to take the account over. The
 * new password follows the invitation policy (checkPassword). Every other session of the
 * account ends (a new generation); the acting session moves along with it. A refusal is
 * audited on its own, a change with the change.
 */
export async function changePassword(
  actor: StaffActor,
  input: { currentPassword: string; code: string; newPassword: string },
): Promise<void> {
  checkPassword(input.newPassword, 'newPassword');
  const user = await repo.findUserById(actor.staffUserId);
  if (!user || user.platformId !== actor.platformId) throw notFound('REFERENCE_NOT_FOUND', 'Your staff account');
  const refuse = async (reason: string, err: DomainError): Promise<never> => {
    await transaction((tx) =>
      record(actor, 'staff.password.change.refused', actor.staffUserId, { email: actor.email, reason }, tx),
    );
    throw err;
  };
  if (!(await verifyPassword(input.currentPassword, user.passwordHash)))
    return refuse('wrong_password', fieldError('currentPassword', 'That is not your current password'));
  if (await verifyPassword(input.newPassword, user.passwordHash))
    throw fieldError('newPassword', 'The new password must differ from the current one');
  const passwordHash = await hashPassword(input.newPassword);
  const refusal = await transaction(async (tx) => {
    if (user.totpSecret) {
      const result = await checkFactor(user.id, input.code, tx, { totpOnly: true });
      if (result !== 'ok') return result;
    }
    await repo.updateUser(user.id, { passwordHash, updatedAt: now() }, tx);
    const generation = await repo.bumpGeneration(user.id, tx, actor.staffSessionId);
    await record(actor, 'staff.password.change', user.id, { email: user.email, generation }, tx);
    return null;
  });
  if (refusal)
    await refuse(
      refusal === 'replayed' ? 'replayed_code' : 'wrong_code',
      fieldError('code', refusal === 'replayed' ? 'That code was used already; wait for the next' : 'Wrong code'),
    );
}
