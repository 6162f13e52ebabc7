import { db } from '../core/db';

// Reading the outbox as a delivery log (the console). A replay claims its event in repository.ts.
export interface EventFilter {
  status?: string;
  type?: string;
  subjectId?: string;
}

/** Events newest first (insertion order), strictly before `beforeSeq`; `take` rows. */
export function listEvents(platformId: string, f: EventFilter, take: number, beforeSeq?: bigint) {
  return db().event.findMany({
    where: {
      platformId,
      ...(f.status ? { status: f.status } : {}),
      ...(f.type ? { type: f.type } : {}),
      ...(f.subjectId ? { subjectId: f.subjectId } : {}),
      ...(beforeSeq !== undefined ? { seq: { lt: beforeSeq } } : {}),
    },
    orderBy: { seq: 'desc' },
    take,
  });
}

export function findEvent(platformId: string, id: string) {
  return db().event.findFirst({ where: { platformId, id } });
}

export function attemptsOfEvents(eventIds: string[]) {
  if (!eventIds.length) return Promise.resolve([]);
  return db().webhookAttempt.findMany({ where: { eventId: { in: eventIds } }, orderBy: { attempt: 'desc' } });
}

export function countByStatus(platformId: string, status: string): Promise<number> {
  return db().event.count({ where: { platformId, status } });
}
