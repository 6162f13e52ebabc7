import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/lib/core/db';
import { currentCorridor } from '@/lib/core/context';
import { ttlCache } from '@/lib/core/cache';
import { instanceKey } from '@/lib/core/instance';
import { isSandbox } from '@/lib/core/mode';
import { kycProvider, manualReviewProvider, sandboxProvider } from '@/lib/customers/kyc-provider';
import { registerJob, runDueJobs } from '@/lib/jobs/queue';
import { outboxOf, sendMessage } from '@/lib/notify/sender';
import { expectError, newPlatform, type TestPlatform } from '@/tests/support/api';
import { createCorridor, type CorridorInstance } from './boot';

// Two Corridor instances in one process, a sandbox one and a production one: the same operation
// run under each meets that instance's own adapters, registries, caches, outbox and instance
// key. Every assertion below would fail if the instances shared any of it (as the process-wide
// registries before createCorridor did).
describe('two instances in one process', () => {
  let sandbox: CorridorInstance;
  let production: CorridorInstance;
  let p: TestPlatform;
  beforeAll(async () => {
    // The embedded database runs one session, which one pool must own: both share the test's.
    const database = currentCorridor().database;
    sandbox = createCorridor({ mode: 'sandbox', database });
    production = createCorridor({ mode: 'production', database });
    p = await newPlatform();
  });
  afterAll(async () => {
    await sandbox.close();
    await production.close();
  });

  it('chose each instance its adapters when it was built', () => {
    expect(sandbox.run(() => [isSandbox(), kycProvider.get()])).toEqual([true, sandboxProvider]);
    expect(production.run(() => [isSandbox(), kycProvider.get()])).toEqual([false, manualReviewProvider]);
  });

  it('answers an operation by the mode of the instance it runs under', async () => {
    const usd = (await p.api.get('/platform/internal-accounts', { query: { currency: 'USD' } })).body.data[0];
    const fund = () => p.api.post(`/sandbox/internal-accounts/${usd.id}/fund`, { amount: 1 });
    expect((await sandbox.run(fund)).status).toBe(200);
    expectError(await production.run(fund), 403, 'FORBIDDEN');
  });

  it('runs a job kind with the handler its own instance registered', async () => {
    const ran: string[] = [];
    sandbox.run(() => registerJob('test.instances', async () => void ran.push('sandbox')));
    production.run(() => registerJob('test.instances', async () => void ran.push('production')));
    const job = async () => {
      const id = `Job:${crypto.randomUUID()}`;
      await db().job.create({
        data: {
          id,
          platformId: p.platformId,
          kind: 'test.instances',
          payload: {},
          runAt: new Date(Date.now() - 1000),
          createdAt: new Date(),
        },
      });
      return id;
    };
    await job();
    await production.run(() => runDueJobs({ platformId: p.platformId }));
    await job();
    await sandbox.run(() => runDueJobs({ platformId: p.platformId }));
    expect(ran).toEqual(['production', 'sandbox']);
    expect(currentCorridor().jobs.handlers.has('test.instances')).toBe(false); // the test's own instance
  });

  it('keeps caches, outbox and instance key apart', async () => {
    const cache = ttlCache<string>('test.instances', 60_000);
    sandbox.run(() => cache.set('k', 'sandbox'));
    expect(production.run(() => cache.get('k'))).toBeUndefined();
    production.run(() => cache.set('k', 'production'));
    expect(sandbox.run(() => cache.get('k'))).toBe('sandbox');

    const message = { platformId: p.platformId, channel: 'SMS' as const, to: '+15550100', text: 'hi', purpose: 'TEST' };
    await sandbox.run(() => sendMessage(message));
    expect(sandbox.run(() => outboxOf(p.platformId))).toHaveLength(1);
    expect(production.run(() => outboxOf(p.platformId))).toEqual([]);

    const keys = [await sandbox.run(instanceKey), await production.run(instanceKey)];
    expect(keys[0]).not.toBe(keys[1]);
  });
});
