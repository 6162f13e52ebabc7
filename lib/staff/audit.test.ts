import { beforeAll, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { DomainError } from '@/lib/core/errors';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { audited, historyOf } from './audit';
import * as staff from './service';
import type { StaffActor } from './roles';

// Every staff action leaves its audit entry whatever happens around it: changes made in one
// transaction commit with their entry; actions that commit on their own are preceded by a
// STARTED entry that only a refusal removes.
let p: TestPlatform;
let admin: StaffActor;
let n = 0;
const email = () => `audit-${process.pid}-${Date.now()}-${++n}@staff.example`;
const entriesOf = (objectId: string) =>
  db().staffAuditEntry.findMany({ where: { platformId: p.platformId, objectId } });

beforeAll(async () => {
  p = await newPlatform();
  const password = 'a-long-enough-password';
  const { user } = await staff.createUser(p.platformId, { email: email(), role: 'admin', password }, db());
  admin = (await staff.actorOf((await staff.signIn(user.email, password)).sessionId))!;
});

it('an action that returns: one entry, written before it ran and marked DONE with what it acted on', async () => {
  const marker = `thing-${++n}`;
  let seenWhileRunning: string[] = [];
  const result = await audited(
    admin,
    { action: 'test.act', objectId: `intent-${marker}`, details: { step: 'intent' } },
    async () => {
      // The entry exists before the action does anything.
      seenWhileRunning = (await entriesOf(`intent-${marker}`)).map((e) => e.outcome);
      return { id: marker };
    },
    (r) => ({ objectId: r.id, details: { step: 'done' } }),
  );
  expect(result).toEqual({ id: marker });
  expect(seenWhileRunning).toEqual(['STARTED']);
  expect(await entriesOf(`intent-${marker}`)).toEqual([]);
  const [entry] = await historyOf(p.platformId, [marker]);
  expect(entry).toMatchObject({ action: 'test.act', outcome: 'DONE', details: { step: 'done' } });
});

it('an action refused with a domain error changed nothing and leaves no entry', async () => {
  const objectId = `refused-${++n}`;
  const err = await audited(admin, { action: 'test.refused', objectId }, async () => {
    throw new DomainError('INVALID_STATE_TRANSITION', 'not now');
  }).catch((e) => e);
  expect(err).toBeInstanceOf(DomainError);
  expect(await entriesOf(objectId)).toEqual([]);
});

it('an action whose outcome was not seen (it committed, then the connection or the process died) keeps its STARTED entry', async () => {
  const objectId = `lost-${++n}`;
  const err = await audited(admin, { action: 'test.lost', objectId, details: { amount: 5 } }, async () => {
    await db().staffAuditEntry.count(); // the action's own work, committed
    throw new Error('Connection terminated unexpectedly');
  }).catch((e) => e);
  expect(err).toBeInstanceOf(Error);
  expect(await historyOf(p.platformId, [objectId])).toEqual([
    expect.objectContaining({ action: 'test.lost', outcome: 'STARTED', details: { amount: 5 } }),
  ]);
});

it('a staff user created or changed commits together with its entry; a refused change leaves neither', async () => {
  const created = await staff.addUser(admin, { email: email(), role: 'viewer' });
  expect((await entriesOf(created.user.id)).map((e) => [e.action, e.outcome])).toEqual([['staff.create', 'DONE']]);
  await staff.setRole(admin, created.user.id, 'operator');
  expect((await entriesOf(created.user.id)).map((e) => e.action).sort()).toEqual(['staff.create', 'staff.role']);
  // A duplicate email is refused inside the transaction: no user, no entry.
  const before = await db().staffAuditEntry.count({ where: { platformId: p.platformId, action: 'staff.create' } });
  await expect(staff.addUser(admin, { email: created.user.email, role: 'viewer' })).rejects.toMatchObject({
    code: 'CONFLICT',
  });
  expect(await db().staffAuditEntry.count({ where: { platformId: p.platformId, action: 'staff.create' } })).toBe(
    before,
  );
});
