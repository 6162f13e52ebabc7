import { expect } from 'vitest';
import { db } from '@/lib/core/db';
import type { TestPlatform } from '@/tests/support/api';
import { advance, balanceOf, txn } from '@/tests/support/money';

// Test helpers shared by the transfer-out and transfer-in tests.

/**
 * A transfer cancelled before it settles: FAILED with a completed USER_CANCELLATION refund, the
 * answer being the transaction as stored, the balance back to `before`, and the settlement timer
 * then finding nothing to do.
 */
export async function expectCancelledBeforeSettling(
  p: TestPlatform,
  id: string,
  account: string,
  before: Awaited<ReturnType<typeof balanceOf>>,
  body?: unknown,
) {
  const cancelled = await p.api.post(`/transactions/${id}/cancel`, body);
  expect(cancelled.status, cancelled.text).toBe(200);
  // FAILED always carries a failureReason (reference); the refund says it was a cancellation.
  expect(cancelled.body).toMatchObject({
    status: 'FAILED',
    failureReason: expect.stringMatching(/^(QUOTE_EXECUTION_FAILED|COLLECTION_FAILED)$/),
    refund: { status: 'COMPLETED', reason: 'USER_CANCELLATION' },
  });
  expect(cancelled.body).toEqual((await p.api.get(`/transactions/${id}`)).body);
  const reason = (body as { reason?: string } | undefined)?.reason;
  if (reason) {
    // The platform's reason is its own note (reference: for debugging or its own purposes): kept,
    // but not written into the payer's description.
    expect(JSON.stringify(cancelled.body)).not.toContain(reason);
    expect((await db().transaction.findUnique({ where: { id } }))?.platformReason).toBe(reason);
  }
  expect(await balanceOf(p, account)).toEqual(before);
  await advance(p, 5);
  expect((await txn(p, id)).status).toBe('FAILED');
  expect(await balanceOf(p, account)).toEqual(before);
}
