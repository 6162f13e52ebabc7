import { now } from '../core/clock';
import { db, type Tx } from '../core/db';
import { DomainError, invalidInput } from '../core/errors';
import { newId } from '../core/ids';
import { pageOf } from '../core/list';
import * as repo from './repository';
import type { StaffActor } from './roles';

// The audit trail of staff actions: who (the staff user, and their email at the time), what
// (an action name and its details), when (the platform's clock, as every other record), and to
// which object — each object's console page shows its own entries.
export interface AuditEntry {
  id: string;
  staffUserId: string;
  staffEmail: string;
  action: string;
  objectId: string;
  details: Record<string, unknown>;
  /** DONE; STARTED while the action runs, or for good when its process died before it returned. */
  outcome: 'STARTED' | 'DONE';
  createdAt: Date;
}

const present = (r: repo.AuditRow): AuditEntry => ({
  id: r.id,
  staffUserId: r.staffUserId,
  staffEmail: r.staffEmail,
  action: r.action,
  objectId: r.objectId,
  details: (r.details ?? {}) as Record<string, unknown>,
  outcome: r.outcome === 'STARTED' ? 'STARTED' : 'DONE',
  createdAt: r.createdAt,
});

/** An entry for a change made in `tx` (it commits with the change), or on its own. */
export async function record(
  actor: StaffActor,
  action: string,
  objectId: string,
  details: Record<string, unknown> = {},
  tx: Tx,
  outcome: AuditEntry['outcome'] = 'DONE',
): Promise<AuditEntry> {
  const row = await repo.insertAudit(
    {
      id: newId('StaffAction'),
      platformId: actor.platformId,
      staffUserId: actor.staffUserId,
      staffEmail: actor.email,
      action,
      objectId,
      details: details as repo.AuditRow['details'],
      outcome,
      createdAt: now(),
    },
    tx,
  );
  return present(row);
}

/** A sign-in (`staff.sign_in`) or a refused one (`staff.sign_in_refused`), and from where. */
export interface SignInEntry {
  platformId: string;
  /** The account the email named; '' when it named none. */
  staffUserId: string;
  /** The email as typed (normalized), when it is one: a password typed into it is not kept. */
  email: string;
  refused: boolean;
  /** `address`, and for a refusal its `reason` (never the password). */
  details: Record<string, unknown>;
}

export async function recordSignIn(entry: SignInEntry): Promise<void> {
  await repo.insertAudit(
    {
      id: newId('StaffAction'),
      platformId: entry.platformId,
      staffUserId: entry.staffUserId,
      staffEmail: entry.email,
      action: entry.refused ? 'staff.sign_in_refused' : 'staff.sign_in',
      objectId: entry.staffUserId,
      details: entry.details as repo.AuditRow['details'],
      outcome: 'DONE',
      createdAt: now(),
    },
    db(),
  );
}

export interface AuditIntent {
  action: string;
  objectId: string;
  details?: Record<string, unknown>;
}

/**
 * Runs a staff action that cannot share a transaction with its entry (it commits on its own, or
 * in several steps): the entry is written first as STARTED, then marked DONE with what `done`
 * derives from the result. An action refused with a domain error changed nothing, and its entry
 * goes; any other failure (a lost connection, a timeout) may come after the action committed, so
 * its entry stays STARTED, as does the entry of a process killed in between: no action is ever
 * without its entry.
 */
export async function audited<T>(
  actor: StaffActor,
  intent: AuditIntent,
  fn: () => Promise<T>,
  done: (result: T) => Partial<AuditIntent> = () => ({}),
): Promise<T> {
  const entry = await record(actor, intent.action, intent.objectId, intent.details, db(), 'STARTED');
  let result: T;
  try {
    result = await fn();
  } catch (err) {
    if (err instanceof DomainError) await repo.deleteStartedAudit(entry.id);
    throw err;
  }
  const final = done(result);
  await repo.completeAudit(entry.id, final.objectId ?? intent.objectId, final.details ?? intent.details ?? {});
  return result;
}

/** The newest entries about any of `objectIds` (an object and the records under it). */
export async function historyOf(platformId: string, objectIds: string[], limit = 50): Promise<AuditEntry[]> {
  if (!objectIds.length) return [];
  return (await repo.auditOf(platformId, objectIds, limit)).map(present);
}

export type AuditFilter = repo.AuditFilter;

/** The audit log newest first, filtered by who, which action and when (whole days chosen by the caller). */
export async function list(platformId: string, filter: AuditFilter, limit: number, cursor?: string) {
  if (filter.from && filter.to && filter.from > filter.to)
    throw invalidInput('from is after to: choose a range that starts before it ends', [
      { field: 'from', message: 'is after to' },
    ]);
  const listed = await repo.listAudit(platformId, filter, { limit, cursor, filters: { ...filter } });
  return pageOf(listed, present);
}
