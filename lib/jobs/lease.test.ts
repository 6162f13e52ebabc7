import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { db } from '@/lib/core/db';
import { instanceKey, isAlive, LOCK_SPACE } from '@/lib/core/instance';
import { newPlatform, type TestPlatform } from '@/tests/support/api';
import { registerJob, runDueJobs } from './queue';

// A job is leased to a live server process: a RUNNING job whose process is gone (its instance
// lock no longer held in the database) is taken over at once, not after minutes; one whose
// process lives is left alone, however long it runs.
const ran: string[] = [];
registerJob('test.lease', async (payload) => void ran.push((payload as { tag: string }).tag));

async function runningJob(platformId: string, tag: string, lockedBy: number | null, lockedAt = new Date()) {
  const id = `Job:${randomUUID()}`;
  await db().job.create({
    data: {
      id,
      platformId,
      kind: 'test.lease',
      payload: { tag },
      runAt: new Date(Date.now() - 1000),
      state: 'RUNNING',
      attempts: 1,
      lockedAt,
      lockedBy,
      createdAt: new Date(),
    },
  });
  return id;
}

const stateOf = async (id: string) => (await db().job.findUnique({ where: { id } }))?.state;

describe('job leases', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await newPlatform();
  });

  it('takes over at once a job whose process died, and leaves a live process its job', async () => {
    let dead = 2_100_000_000;
    while (await isAlive(dead)) dead++;
    const orphan = await runningJob(p.platformId, `orphan ${dead}`, dead);
    const mine = await runningJob(p.platformId, 'mine', await instanceKey());
    await runDueJobs({ platformId: p.platformId });
    expect(ran).toContain(`orphan ${dead}`);
    expect(await stateOf(orphan)).toBe('DONE');
    expect(ran).not.toContain('mine');
    expect(await stateOf(mine)).toBe('RUNNING');
  });

  it('keeps the five-minute rule for jobs claimed before instance keys existed', async () => {
    const fresh = await runningJob(p.platformId, 'legacy fresh', null, new Date(Date.now() - 60_000));
    const stale = await runningJob(p.platformId, 'legacy stale', null, new Date(Date.now() - 6 * 60_000));
    await runDueJobs({ platformId: p.platformId });
    expect(await stateOf(fresh)).toBe('RUNNING');
    expect(await stateOf(stale)).toBe('DONE');
  });

  // A real second process holding a real lock, killed with SIGKILL. (PostgreSQL only: the embedded
  // database serves every connection from one session, which the killed process does not take
  // down; there the database itself stops with the server process.)
  it.skipIf(inject('embedded'))('resumes the jobs of a server process killed with SIGKILL', async () => {
    const script = `
      const pg = require('pg');
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      c.connect().then(async () => {
        const key = 1 + Math.floor(Math.random() * 2147483000);
        await c.query('SELECT pg_advisory_lock($1::int, $2::int)', [${LOCK_SPACE}, key]);
        await c.query(\`UPDATE "Job" SET "lockedBy" = $1 WHERE "id" = $2\`, [key, process.env.JOB_ID]);
        console.log('locked ' + key);
        setInterval(() => {}, 1000);
      });`;
    const id = await runningJob(p.platformId, 'killed', null);
    const child = spawn(process.execPath, ['-e', script], {
      env: { ...process.env, JOB_ID: id },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const key = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        const m = /locked (\d+)/.exec(String(d));
        if (m) resolve(Number(m[1]));
      });
      child.on('exit', (code) => reject(new Error(`worker stand-in exited with ${code}`)));
    });
    expect(await isAlive(key)).toBe(true);
    await runDueJobs({ platformId: p.platformId });
    expect(await stateOf(id)).toBe('RUNNING'); // its process lives: left alone
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // The server notices the closed connection and drops its session's locks at once.
    for (let i = 0; i < 50 && (await isAlive(key)); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await isAlive(key)).toBe(false);
    await runDueJobs({ platformId: p.platformId });
    expect(await stateOf(id)).toBe('DONE');
    expect(ran).toContain('killed');
  });
});
