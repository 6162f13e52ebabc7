import { randomUUID } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createCorridor, type CorridorInstance, type CorridorOptions } from '@/lib/boot';
import { currentCorridor } from '@/lib/core/context';
import { db } from '@/lib/core/db';
import { instanceKey, isAlive } from '@/lib/core/instance';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { registerJob, runDueJobs } from './queue';

// Jobs cannot strand: a claim is a lease that runs out unless renewed, a handler has a time
// limit, and a claim whose bookkeeping fails is released. Each worker here is a Corridor
// instance of its own (sharing the test's database client: the embedded database runs one
// session), with its failures injected through its configuration.
const instances: CorridorInstance[] = [];
function worker(jobs: CorridorOptions['jobs'] = {}): CorridorInstance {
  const instance = createCorridor({ database: currentCorridor().database, jobs });
  instances.push(instance);
  return instance;
}
afterAll(async () => {
  for (const instance of instances) await instance.close();
});

let p: TestPlatform;
beforeEach(async () => {
  p = await newPlatform();
});

async function job(kind: string, extra: { state?: string; lockedBy?: number; leaseUntil?: Date } = {}) {
  const id = `Job:${randomUUID()}`;
  await db().job.create({
    data: {
      id,
      platformId: p.platformId,
      kind,
      payload: {},
      runAt: new Date(Date.now() - 1000),
      createdAt: new Date(),
      ...(extra.state === 'RUNNING' ? { attempts: 1, lockedAt: new Date() } : {}),
      ...extra,
    },
  });
  return id;
}
const row = async (id: string) => (await db().job.findUnique({ where: { id } }))!;
const run = (w: CorridorInstance) => w.run(() => runDueJobs({ platformId: p.platformId }));
const running = () => db().job.count({ where: { platformId: p.platformId, state: 'RUNNING' } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('job bookkeeping failures', () => {
  it('releases a job whose markRetry throws, and goes on with the rest of the batch', async () => {
    const w = worker({
      bookkeeping: {
        markRetry: async () => {
          throw new Error('injected: markRetry failed');
        },
      },
    });
    const ran: string[] = [];
    w.run(() => {
      registerJob('test.strand.fails', async () => {
        throw new Error('handler failed');
      });
      registerJob('test.strand.ok', async () => void ran.push('ok'));
    });
    const failing = await job('test.strand.fails');
    const ok = await job('test.strand.ok');
    await run(w); // resolves: the failed bookkeeping does not escape the pass
    expect(await running()).toBe(0);
    const released = await row(failing);
    expect(released).toMatchObject({ state: 'PENDING', lockedBy: null, leaseUntil: null, attempts: 1 });
    expect(released.lastError).toMatch(/handler failed.*injected: markRetry failed/);
    expect(ran).toEqual(['ok']);
    expect((await row(ok)).state).toBe('DONE');
  });

  it('leaves the lease to run out when releasing fails too, and another worker takes the job', async () => {
    const failing = async () => {
      throw new Error('injected: database gone');
    };
    const broken = worker({ leaseMs: 3000, bookkeeping: { markRetry: failing, release: failing } });
    broken.run(() =>
      registerJob('test.strand.gone', async () => {
        throw new Error('handler failed');
      }),
    );
    const id = await job('test.strand.gone');
    await run(broken);
    const stuck = await row(id);
    expect(stuck.state).toBe('RUNNING');
    expect(stuck.leaseUntil!.getTime()).toBeLessThanOrEqual(Date.now() + 3000);
    const healthy = worker();
    let ran = 0;
    healthy.run(() => registerJob('test.strand.gone', async () => void ran++));
    await run(healthy);
    expect(ran).toBe(0); // its lease has not run out yet
    await sleep(stuck.leaseUntil!.getTime() - Date.now() + 100);
    await run(healthy);
    expect(ran).toBe(1);
    expect(await row(id)).toMatchObject({ state: 'DONE', attempts: 2 });
  });
});

describe('handler time limit', () => {
  it('releases a hung handler’s job for retry and moves on; the retry completes it', async () => {
    const w = worker({ handlerTimeoutMs: 300 });
    let calls = 0;
    const ran: string[] = [];
    w.run(() => {
      registerJob('test.strand.hangs', async () => {
        if (++calls === 1) await new Promise(() => {}); // never settles
      });
      registerJob('test.strand.after', async () => void ran.push('after'));
    });
    const hung = await job('test.strand.hangs');
    await job('test.strand.after');
    const started = Date.now();
    await run(w);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(ran).toEqual(['after']);
    const released = await row(hung);
    expect(released).toMatchObject({ state: 'PENDING', lockedBy: null, attempts: 1 });
    expect(released.lastError).toMatch(/timed out after 300 ms/);
    // Due again (its backoff skipped): the retry runs and finishes.
    await db().job.update({ where: { id: hung }, data: { runAt: new Date(Date.now() - 1000) } });
    await run(w);
    expect(calls).toBe(2);
    expect(await row(hung)).toMatchObject({ state: 'DONE', attempts: 2 });
  });
});

describe('job leases', () => {
  it('lets a second worker take over a job whose lease ran out, though its worker lives', async () => {
    const first = worker();
    const key = await first.run(instanceKey);
    const expired = await job('test.strand.lease', {
      state: 'RUNNING',
      lockedBy: key,
      leaseUntil: new Date(Date.now() - 1),
    });
    const held = await job('test.strand.lease', {
      state: 'RUNNING',
      lockedBy: key,
      leaseUntil: new Date(Date.now() + 60_000),
    });
    const second = worker();
    const ran: string[] = [];
    second.run(() => registerJob('test.strand.lease', async (_payload, j) => void ran.push(j.id)));
    await run(second);
    expect(await isAlive(key)).toBe(true);
    expect(ran).toEqual([expired]);
    expect(await row(expired)).toMatchObject({ state: 'DONE', attempts: 2 });
    expect(await row(held)).toMatchObject({ state: 'RUNNING', lockedBy: key });
  });

  it('renews the lease while a long handler runs, so no other worker takes its job', async () => {
    // Generous lengths: a loaded machine may stall the event loop for a good part of a second.
    const slow = worker({ leaseMs: 1500 });
    const other = worker({ leaseMs: 1500 });
    let calls = 0;
    let started = false;
    slow.run(() =>
      registerJob('test.strand.long', async () => {
        calls++;
        started = true;
        await sleep(4500); // three lease lengths
      }),
    );
    other.run(() => registerJob('test.strand.long', async () => void calls++));
    const id = await job('test.strand.long');
    let finished = false;
    const pass = run(slow).then(() => (finished = true));
    while (!started) await sleep(20);
    let polls = 0;
    while (!finished) {
      await run(other);
      polls++;
      await sleep(100);
    }
    await pass;
    expect(polls).toBeGreaterThan(10);
    expect(calls).toBe(1);
    expect(await row(id)).toMatchObject({ state: 'DONE', attempts: 1 });
  });
});
