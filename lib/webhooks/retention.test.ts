import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { newPlatform } from '@/tests/support/api';
import { eventRetentionDays, pruneEvents } from './retention';

const DAY = 24 * 3600_000;

// Settled events (and their delivery attempts) go after the retention; pending ones never do.
describe('event retention', () => {
  it('removes settled events older than the retention with their attempts, and keeps the rest', async () => {
    const p = await newPlatform();
    const now = new Date();
    const make = async (ageDays: number, status: string) => {
      const id = `Webhook:${randomUUID()}`;
      await db().event.create({
        data: {
          id,
          platformId: p.platformId,
          type: 'TEST',
          payload: '{}',
          createdAt: new Date(now.getTime() - ageDays * DAY),
        },
      });
      await db().event.update({ where: { id }, data: { status } });
      await db().webhookAttempt.create({
        data: {
          id: `WebhookAttempt:${randomUUID()}`,
          platformId: p.platformId,
          eventId: id,
          attempt: 1,
          url: 'https://example.com/hook',
          startedAt: new Date(now.getTime() - ageDays * DAY),
          latencyMs: 1,
          succeeded: status === 'DELIVERED',
        },
      });
      return id;
    };
    const oldDelivered = await make(100, 'DELIVERED');
    const oldFailed = await make(100, 'FAILED');
    const oldPending = await make(100, 'PENDING');
    const recent = await make(10, 'DELIVERED');

    expect(await pruneEvents(now, 90)).toBeGreaterThanOrEqual(2);
    const left = (await db().event.findMany({ where: { platformId: p.platformId } })).map((e) => e.id).sort();
    expect(left).toEqual([oldPending, recent].sort());
    const attempts = await db().webhookAttempt.findMany({ where: { platformId: p.platformId } });
    expect(attempts.map((a) => a.eventId).sort()).toEqual([oldPending, recent].sort());
    expect(left).not.toContain(oldDelivered);
    expect(left).not.toContain(oldFailed);
    expect(await pruneEvents(now, null)).toBe(0);
  });

  it('reads CORRIDOR_EVENT_RETENTION_DAYS: 90 by default, never below the retry window, "never" keeps all', () => {
    expect(eventRetentionDays({})).toBe(90);
    expect(eventRetentionDays({ CORRIDOR_EVENT_RETENTION_DAYS: '30' })).toBe(30);
    expect(eventRetentionDays({ CORRIDOR_EVENT_RETENTION_DAYS: '1' })).toBe(8);
    expect(eventRetentionDays({ CORRIDOR_EVENT_RETENTION_DAYS: 'never' })).toBeNull();
  });
});
