import { expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { db } from '@/lib/core/db';
import { newPlatform } from '@/tests/support/api';
import { newWallet } from '@/lib/wallet-auth/testing/flows';
import { DAY_MS, purgeStale } from './retention';

type Wallet = Awaited<ReturnType<typeof newWallet>>;

// An expired-long-ago and a recently expired row of each kind of one-time material.
async function seedOneTimeMaterial(platformId: string, w: Wallet, now: number) {
  const longAgo = new Date(now - 2 * DAY_MS);
  const recently = new Date(now - 3600_000);
  const ids = (prefix: string) => ({ old: `${prefix}:${randomUUID()}`, recent: `${prefix}:${randomUUID()}` });

  const otp = ids('Challenge');
  for (const [id, expiresAt] of [
    [otp.old, longAgo],
    [otp.recent, recently],
  ] as const) {
    await db().otpChallenge.create({
      data: {
        id,
        platformId: platformId,
        authMethodId: w.emailOtpId,
        targetPublicKey: 'x',
        targetSecretKeySealed: 'x',
        createdAt: new Date(expiresAt.getTime() - 300_000),
        expiresAt,
      },
    });
  }
  const signed = ids('Request');
  for (const [id, expiresAt] of [
    [signed.old, longAgo],
    [signed.recent, recently],
  ] as const) {
    await db().signedRequest.create({
      data: {
        id,
        platformId: platformId,
        kind: 'TEST',
        accountIds: [w.accountId],
        method: 'POST',
        path: '/x',
        bodyHash: 'x',
        payloadToSign: 'x',
        context: {},
        createdAt: new Date(expiresAt.getTime() - 300_000),
        expiresAt,
      },
    });
  }
  const codes = ids('OneTimeCode');
  for (const [id, expiresAt] of [
    [codes.old, longAgo],
    [codes.recent, recently],
  ] as const) {
    await db().oneTimeCode.create({
      data: {
        id,
        platformId: platformId,
        purpose: 'CONTACT_EMAIL',
        subject: w.customerId,
        binding: 'x',
        codeHash: 'x',
        maxAttempts: 5,
        state: 'SUPERSEDED',
        createdAt: new Date(expiresAt.getTime() - 300_000),
        expiresAt,
      },
    });
  }
  return { otp, signed, codes };
}

// The worker's housekeeping: expired one-time material goes a day after expiry, finished jobs a
// week after they finished; nothing still usable, and no history, is removed.
it('purges long-expired codes and challenges and old finished jobs, and keeps the rest', async () => {
  const p = await newPlatform();
  const w = await newWallet(p);
  const now = Date.now();
  const { otp, signed, codes } = await seedOneTimeMaterial(p.platformId, w, now);
  // Failed-authentication counts (lib/tokens/throttle.ts): kept while their window or refusal runs.
  const failures = { old: `a:test-${randomUUID()}`, recent: `a:test-${randomUUID()}` };
  await db().authFailure.createMany({
    data: [
      { key: failures.old, windowStart: new Date(now - 3 * DAY_MS), failures: 3, blockedUntil: null },
      { key: failures.recent, windowStart: new Date(now - 60_000), failures: 3, blockedUntil: null },
    ],
  });
  const job = (state: string, doneAt: Date) => ({
    id: `Job:${randomUUID()}`,
    platformId: p.platformId,
    kind: 'test.noop',
    payload: {},
    runAt: doneAt,
    createdAt: doneAt,
    state,
    doneAt,
  });
  const oldDone = job('DONE', new Date(now - 8 * DAY_MS));
  const newDone = job('DONE', new Date(now - DAY_MS));
  const oldFailed = job('FAILED', new Date(now - 30 * DAY_MS));
  await db().job.createMany({ data: [oldDone, newDone, oldFailed] });

  await purgeStale(new Date(now));

  const kept = (rows: { id: string }[], ids: string[]) => ids.map((id) => rows.some((r) => r.id === id));
  const select = { id: true } as const;
  expect(
    kept(await db().otpChallenge.findMany({ where: { id: { in: [otp.old, otp.recent] } }, select }), [
      otp.old,
      otp.recent,
    ]),
  ).toEqual([false, true]);
  expect(
    kept(await db().signedRequest.findMany({ where: { id: { in: [signed.old, signed.recent] } }, select }), [
      signed.old,
      signed.recent,
    ]),
  ).toEqual([false, true]);
  expect(
    kept(await db().oneTimeCode.findMany({ where: { id: { in: [codes.old, codes.recent] } }, select }), [
      codes.old,
      codes.recent,
    ]),
  ).toEqual([false, true]);
  const keys = [failures.old, failures.recent];
  expect(
    kept(
      (await db().authFailure.findMany({ where: { key: { in: keys } }, select: { key: true } })).map((r) => ({
        id: r.key,
      })),
      keys,
    ),
  ).toEqual([false, true]);
  const jobs = [oldDone.id, newDone.id, oldFailed.id];
  expect(kept(await db().job.findMany({ where: { id: { in: jobs } }, select }), jobs)).toEqual([false, true, true]);
});
