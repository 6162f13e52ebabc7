import { now } from '../core/clock';
import { transaction, type Tx, db } from '../core/db';
import { DomainError } from '../core/errors';
import { scaCustomer } from './customer';
import * as repo from './repository';

// The customer's login-security state: a cumulative failed-login counter with escalating lockout
// (5 -> 15 minutes, 6 -> 30 minutes, 7 -> 1 hour, 8 -> 24 hours, 9 or more -> suspended until a
// password reset is recorded). Failed SCA logins count, as do the integrator's own failed sign-ins
// reported through POST /sca/record-event.
export interface SecurityView {
  suspended: boolean;
  lockedUntil: Date | null;
  failedAttempts: number;
}

export function view(row: repo.SecurityRow | null | undefined, at: Date = now()): SecurityView {
  if (!row) return { suspended: false, lockedUntil: null, failedAttempts: 0 };
  const lockedUntil = !row.suspended && row.lockedUntil && row.lockedUntil > at ? row.lockedUntil : null;
  return { suspended: row.suspended, lockedUntil, failedAttempts: row.failedAttempts };
}

export const isLocked = (v: SecurityView) => v.suspended || v.lockedUntil !== null;

export function accountLocked(v: SecurityView): DomainError {
  return new DomainError(
    'ACCOUNT_LOCKED',
    v.suspended
      ? 'The customer login is suspended after too many failed attempts; record RESET_PASSWORD_COMPLETED to lift it'
      : `The customer login is locked after too many failed attempts until ${v.lockedUntil!.toISOString()}`,
    { suspended: v.suspended, lockedUntil: v.lockedUntil?.toISOString() ?? null, failedAttempts: v.failedAttempts },
  );
}

/** Refuses (423) while the customer's login is locked or suspended. */
export async function checkNotLocked(customerId: string, tx: Tx): Promise<void> {
  const v = view(await repo.securityState(customerId, tx));
  if (isLocked(v)) throw accountLocked(v);
}

export async function countFailure(platformId: string, customerId: string, tx: Tx): Promise<SecurityView> {
  const at = now();
  return view(await repo.countFailedLogin(platformId, customerId, at, tx), at);
}

export type SecurityEvent = 'RESET_PASSWORD_COMPLETED' | 'FAILED_LOGIN_ATTEMPT';

/**
 * POST /sca/record-event. A failed sign-in reported while the login is already locked is still
 * counted (the lockout escalates) and answered 423 with the new state; otherwise the resulting
 * state is returned, any lockout included.
 */
export async function recordEvent(platformId: string, customerId: string, eventType: SecurityEvent) {
  await scaCustomer(platformId, customerId, db());
  if (eventType === 'RESET_PASSWORD_COMPLETED') {
    const at = now();
    const row = await transaction(async (tx) => {
      await repo.revokeSessions(customerId, at, tx);
      return repo.clearFailedLogins(platformId, customerId, at, tx);
    });
    return { eventType, ...serialize(view(row, at)) };
  }
  const before = view(await repo.securityState(customerId, db()));
  const after = await countFailure(platformId, customerId, db());
  if (isLocked(before)) throw accountLocked(after);
  return { eventType, ...serialize(after) };
}

function serialize(v: SecurityView) {
  return { suspended: v.suspended, lockedUntil: v.lockedUntil, failedAttempts: v.failedAttempts };
}
