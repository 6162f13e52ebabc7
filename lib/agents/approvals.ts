import type { Actor } from '../core/context';
import { now } from '../core/clock';
import { db, type Tx } from '../core/db';
import { DomainError, notFound } from '../core/errors';
import { effect, Refusal } from '../core/idempotency';
import { pageOf } from '../core/list';
import { recordEvent } from '../events/outbox';
import { executeLocked, lockForExecution } from '../payments/quotes/execute';
import * as txRepo from '../payments/transactions/repository';
import { toTransaction } from '../payments/transactions/presenter';
import * as transactions from '../payments/transactions/service';
import { startApproved } from '../payments/transfers/service';
import { EXPIRED_WHILE_HELD } from './expiry';
import { release } from './limits';
import { toAction } from './presenter';
import * as repo from './repository';
import type { ApprovalsQuery } from './schema';

// The platform's decision on an agent action waiting for approval, by either route: POST
// /agents/{agentId}/actions/{actionId}/approve|reject or POST /transactions/{transactionId}/
// approve|reject on the action's pending transaction. The action's row is locked while it is
// PENDING_APPROVAL and moved through the transition table (lib/agents/state.ts) in the same
// transaction as the money, so an action executes once: a second approval, concurrent or later,
// finds it no longer pending and answers 409. These take the Actor so that the console (a staff
// actor) calls them as the API does.

const notPending = (id: string, status: string) =>
  new DomainError(
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
    `Agent action ${id} is not waiting for platform approval (status ${status})`,
    { status },
  );

/** An execution that could not run: the action becomes FAILED with this reason. */
class ExecutionFailed extends Error {
  constructor(
    readonly reason: string,
    readonly failureReason = 'QUOTE_EXECUTION_FAILED',
  ) {
    super(reason);
  }
}

type Present<T> = (tx: Tx, action: repo.ActionRow) => Promise<T>;
const asAction: Present<Awaited<ReturnType<typeof toAction>>> = (tx, row) => toAction(row, tx);

async function pendingOrExplain(platformId: string, actionId: string, agentId: string | null, tx: Tx) {
  const row = await repo.lockPending(platformId, actionId, tx);
  if (row && (!agentId || row.agentId === agentId)) return row;
  const existing = await repo.findAction(platformId, actionId, tx);
  if (!existing || (agentId && existing.agentId !== agentId))
    throw notFound('REFERENCE_NOT_FOUND', `Agent action ${actionId}`);
  throw notPending(actionId, existing.status);
}

export async function listApprovals(actor: Actor, q: ApprovalsQuery) {
  const filter = {
    agentId: q.agentId,
    customerId: q.customerId,
    status: 'PENDING_APPROVAL',
    startDate: q.startDate ? new Date(q.startDate) : undefined,
    endDate: q.endDate ? new Date(q.endDate) : undefined,
  };
  const req = { limit: q.limit, cursor: q.cursor, order: q.sortOrder, filters: { ...filter } };
  const page = pageOf(await repo.listActions(actor.platformId, filter, req), (r) => r);
  return { ...page, data: await Promise.all(page.data.map((r) => toAction(r, db()))) };
}

/**
 * Actions that left the approval queue because their quote expired first (failed by the sweep of
 * lib/agents/expiry.ts) in the last `hours` of the platform's clock: the console lists them so
 * that an action does not die unseen.
 */
export async function listExpiredWhileHeld(actor: Actor, hours = 24, limit = 10) {
  const since = new Date(now().getTime() - hours * 3_600_000);
  const rows = await repo.expiredWhileHeld(actor.platformId, EXPIRED_WHILE_HELD, since, limit, db());
  return Promise.all(rows.map(async (r) => ({ action: await toAction(r, db()), failedAt: r.updatedAt })));
}

/** Runs the held operation in `tx`; throws ExecutionFailed when it cannot run. */
async function execute(tx: Tx, action: repo.ActionRow): Promise<void> {
  const pending = action.transactionId ? await txRepo.findById(action.platformId, action.transactionId, tx) : null;
  if (!pending) throw new ExecutionFailed('The action has no transaction to start');
  if (action.type === 'EXECUTE_QUOTE') {
    // The holder's wallet signature, if the source needed one, was checked at submission.
    const found = await lockForExecution(tx, action.platformId, action.quoteId!, async () => {});
    if (found instanceof Refusal) {
      const expired = (found.error as DomainError).details?.status === 'EXPIRED';
      throw new ExecutionFailed(found.error.message, expired ? 'QUOTE_EXPIRED' : undefined);
    }
    await txRepo.update(pending.id, { awaitingApproval: false }, tx);
    await executeLocked(tx, found.quote, { ...found.transaction, awaitingApproval: false }, found.sourceAccount);
    return;
  }
  if (!(await startApproved(tx, pending)))
    throw new ExecutionFailed(`Transaction ${pending.id} is ${pending.status} and can no longer start`);
}

/** Approves and executes a pending action once; an execution that cannot run leaves it FAILED. */
export function approveAction(actor: Actor, agentId: string | null, actionId: string) {
  return approve(actor.platformId, agentId, actionId, asAction);
}

async function approve<T>(platformId: string, agentId: string | null, actionId: string, present: Present<T>) {
  try {
    return await effect(async (tx) => {
      const action = await pendingOrExplain(platformId, actionId, agentId, tx);
      try {
        await execute(tx, action);
      } catch (err) {
        // A refusal of the execution itself (insufficient funds, say): recorded as FAILED below.
        if (err instanceof DomainError) throw new ExecutionFailed(err.message);
        throw err;
      }
      const moved = await repo.move(action.id, 'approve', { updatedAt: now() }, tx);
      if (!moved) throw notPending(actionId, 'changed');
      return present(tx, moved);
    });
  } catch (err) {
    if (!(err instanceof ExecutionFailed)) throw err;
    // The approval is recorded, the execution's failure with it: the action FAILED, its
    // transaction failed, its counting given back.
    return effect(async (tx) => {
      const action = await pendingOrExplain(platformId, actionId, agentId, tx);
      await settleTransaction(tx, action, err.failureReason, err.reason);
      await release(action.agentId, action.usage, tx);
      const moved = await repo.move(action.id, 'fail', { failureReason: err.reason, updatedAt: now() }, tx);
      if (!moved) throw notPending(actionId, 'changed');
      return present(tx, moved);
    });
  }
}

/**
 * Ends the held transaction of an action that will not run. An outgoing one FAILED (an outgoing
 * transaction has no REJECTED state in the reference) with `failureReason`; an incoming pull
 * REJECTED. A quote's transaction that expired meanwhile stays EXPIRED.
 */
async function settleTransaction(tx: Tx, action: repo.ActionRow, failureReason: string, note: string) {
  if (!action.transactionId) return;
  const row = await txRepo.findById(action.platformId, action.transactionId, tx);
  if (!row || row.status !== 'PENDING') return;
  const data = { awaitingApproval: false, platformReason: note, updatedAt: now() };
  if (row.type === 'INCOMING') {
    await txRepo.transition(row.id, 'reject', data, tx);
    return;
  }
  const failed = await txRepo.transition(row.id, 'fail', { ...data, failureReason }, tx);
  if (failed) await recordEvent(tx, action.platformId, 'OUTGOING_PAYMENT.FAILED', toTransaction(failed));
}

/** Rejects a pending action: nothing moves, its counting is given back, the reason is kept. */
export function rejectAction(actor: Actor, agentId: string | null, actionId: string, reason?: string) {
  return reject(actor.platformId, agentId, actionId, reason, asAction);
}

async function reject<T>(
  platformId: string,
  agentId: string | null,
  actionId: string,
  reason: string | undefined,
  present: Present<T>,
) {
  return effect(async (tx) => {
    const action = await pendingOrExplain(platformId, actionId, agentId, tx);
    await settleTransaction(tx, action, 'COMPLIANCE_REJECTED', reason ?? 'Rejected by the platform');
    await release(action.agentId, action.usage, tx);
    const moved = await repo.move(action.id, 'reject', { rejectionReason: reason ?? null, updatedAt: now() }, tx);
    if (!moved) throw notPending(actionId, 'changed');
    return present(tx, moved);
  });
}

/** An action's transaction as it is now in `tx` (the answer of the /transactions routes). */
const asTransaction: Present<ReturnType<typeof toTransaction>> = async (tx, action) => {
  const row = await txRepo.findById(action.platformId, action.transactionId!, tx);
  if (!row) throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${action.transactionId}`);
  return toTransaction(row);
};

/**
 * POST /transactions/{transactionId}/approve: an agent's pending transaction is approved through
 * its action (answered with the transaction); any other goes to the payments engine as before.
 */
export async function approveTransaction(actor: Actor, transactionId: string, info?: Record<string, unknown>) {
  const action = await repo.findActionByTransaction(actor.platformId, transactionId, db());
  if (!action) return transactions.approve(actor.platformId, transactionId, info);
  return approve(actor.platformId, null, action.id, asTransaction);
}

/** POST /transactions/{transactionId}/reject, likewise. */
export async function rejectTransaction(actor: Actor, transactionId: string, reason?: string) {
  const action = await repo.findActionByTransaction(actor.platformId, transactionId, db());
  if (!action) return transactions.reject(actor.platformId, transactionId, reason);
  return reject(actor.platformId, null, action.id, reason, asTransaction);
}
