import { now } from '../../core/clock';
import { transaction } from '../../core/db';
import { effect } from '../../core/idempotency';
import { DomainError, fieldError, notFound } from '../../core/errors';
import { pageOf } from '../../core/list';
import { failPayout } from '../settlement';
import { CANCELLED } from '../steps';
import { approveIncoming, rejectIncoming } from '../uma/receive';
import { cancelPull } from '../transfers/settlement';
import * as repo from './repository';
import { toTransaction } from './presenter';

// Reading transactions and the actions a platform takes on them: receipt confirmation, approval
// or rejection of payments waiting for it, cancellation of bank transfers not yet settled.
export async function get(platformId: string, id: string) {
  const row = await repo.findById(platformId, id);
  if (!row) throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${id}`);
  return toTransaction(row);
}

export async function list(
  platformId: string,
  filter: repo.TransactionFilter,
  limit: number,
  order: 'asc' | 'desc',
  cursor?: string,
) {
  const listed = await repo.list(platformId, filter, { limit, cursor, order, filters: { ...filter } });
  return pageOf(listed, toTransaction);
}

/** How far ahead of this server's clock a confirmation time may be (the platform's clock may run ahead). */
const CONFIRMATION_SKEW_MS = 5 * 60_000;

export async function confirmReceipt(platformId: string, id: string, at?: string) {
  if (at && new Date(at).getTime() > now().getTime() + CONFIRMATION_SKEW_MS) {
    throw fieldError(
      'receiptDeliveryConfirmedAt',
      `${at} is in the future: give the time the receipt was delivered, or omit it for now`,
    );
  }
  return transaction(async (tx) => {
    const row = await repo.findById(platformId, id, tx);
    if (!row) throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${id}`);
    return toTransaction(
      await repo.update(id, { receiptDeliveryConfirmedAt: at ? new Date(at) : now(), updatedAt: now() }, tx),
    );
  });
}

const notAwaiting = (id: string, status: string) =>
  new DomainError(
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
    `Transaction ${id} is not waiting for platform approval (status ${status})`,
  );

export async function approve(platformId: string, id: string, receiverCustomerInfo?: Record<string, unknown>) {
  return effect(async (tx) => {
    const row = await repo.findById(platformId, id, tx);
    if (!row) throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${id}`);
    if (!row.awaitingApproval) throw notAwaiting(id, row.status);
    const approved = await approveIncoming(tx, row, receiverCustomerInfo);
    if (!approved) throw notAwaiting(id, row.status);
    return toTransaction(approved);
  });
}

export async function reject(platformId: string, id: string, reason?: string) {
  return effect(async (tx) => {
    const row = await repo.findById(platformId, id, tx);
    if (!row) throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${id}`);
    if (!row.awaitingApproval) throw notAwaiting(id, row.status);
    const rejected = await rejectIncoming(tx, row, { reason });
    if (!rejected) throw notAwaiting(id, row.status);
    return toTransaction(rejected);
  });
}

/** Bank rails whose transfers a partner can still recall before settlement. */
const CANCELLABLE_RAILS = new Set(['ACH', 'WIRE', 'SEPA', 'BANK_TRANSFER', 'SWIFT']);

export async function cancel(platformId: string, id: string, reason?: string) {
  return effect(async (tx) => {
    const row = await repo.findById(platformId, id, tx);
    if (!row) throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${id}`);
    const notCancellable = (why: string) =>
      new DomainError('TRANSACTION_NOT_CANCELLABLE', `Transaction ${id} cannot be cancelled: ${why}`, {
        status: row.status,
      });
    if (row.status !== 'PROCESSING') throw notCancellable(`it is ${row.status}`);
    if (!row.paymentRail || !CANCELLABLE_RAILS.has(row.paymentRail))
      throw notCancellable(`${row.paymentRail ?? 'this transfer'} is not a bank rail that can be recalled`);
    const done = row.type === 'OUTGOING' ? await failPayout(tx, row, CANCELLED) : await cancelPull(tx, row);
    if (!done) throw notCancellable('it settled meanwhile');
    return toTransaction(reason ? await repo.update(done.id, { platformReason: reason }, tx) : done);
  });
}
