import { now } from '../core/clock';
import type { Tx } from '../core/db';
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
  createdAt: Date;
}

const present = (r: repo.AuditRow): AuditEntry => ({
  id: r.id,
  staffUserId: r.staffUserId,
  staffEmail: r.staffEmail,
  action: r.action,
  objectId: r.objectId,
  details: (r.details ?? {}) as Record<string, unknown>,
  createdAt: r.createdAt,
});

export async function record(
  actor: StaffActor,
  action: string,
  objectId: string,
  details: Record<string, unknown> = {},
  tx?: Tx,
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
      createdAt: now(),
    },
    tx,
  );
  return present(row);
}

/** The newest entries about any of `objectIds` (an object and the records under it). */
export async function historyOf(platformId: string, objectIds: string[], limit = 50): Promise<AuditEntry[]> {
  if (!objectIds.length) return [];
  return (await repo.auditOf(platformId, objectIds, limit)).map(present);
}

export async function list(platformId: string, limit: number, cursor?: string) {
  const listed = await repo.listAudit(platformId, { limit, cursor, filters: {} });
  return pageOf(listed, present);
}
