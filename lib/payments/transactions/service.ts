import { now } from '../../core/clock';
import { transaction, db } from '../../core/db';
import { effect } from '../../core/idempotency';
import { DomainError, fieldError, notFound } from '../../core/errors';
import { decodePosition, fingerprintOf, pageOf, type ListRequest, type Listed } from '../../core/list';
import * as cards from '../../cards/repository';
import { toCardTransaction, type CardTransaction } from '../../cards/presenter';
import { failPayout } from '../settlement';
import { CANCELLED, overRail } from '../steps';
import { awaitsPull, cancellablePull, PULL_WITH_RAIL, refundsOverRail } from '../rail-collect';
import { approveIncoming, rejectIncoming } from '../uma/receive';
import { cancelPull } from '../transfers/settlement';
import * as repo from './repository';
import { toTransaction, type Transaction } from './presenter';

// Reading transactions and the actions a platform takes on them: receipt confirmation, approval
// or rejection of payments waiting for it, cancellation of bank transfers not yet settled.
export async function get(platformId: string, id: string) {
  const row = await repo.findById(platformId, id, db());
  if (!row) throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${id}`);
  return toTransaction(row);
}

/** Payment transactions and card transactions (reference: TransactionOneOf, `type: CARD`). */
export type AnyTransaction = Transaction | CardTransaction;

/**
 * The payment-transaction rows and the card-transaction rows of one page, each in its table's
 * order. Both lists take the same cursor (a position in (createdAt, id) order). The count of the
 * merged list is computed once, on its first page, as the sum of the two, and then carried in the
 * cursor like any list's: later pages ask neither table to count.
 */
async function bothTables(platformId: string, filter: repo.TransactionFilter, req: ListRequest) {
  const none = { rows: [], total: 0, limit: req.limit, fingerprint: '' };
  // Card transactions always have a cardholder and no reconciliation reference.
  const cardsToo =
    (!filter.type || filter.type === 'CARD') &&
    !filter.reference &&
    !filter.rail &&
    filter.customerId !== platformId &&
    filter.platformCustomerId !== 'PLATFORM';
  const carried = decodePosition(req.cursor, fingerprintOf(req.filters, req.order))?.total;
  const sub: ListRequest = { ...req, count: carried === undefined };
  const [payments, card] = await Promise.all([
    filter.type === 'CARD' ? none : repo.list(platformId, filter, sub),
    cardsToo ? cards.listTransactions(platformId, filter, sub) : none,
  ]);
  // Either side past its count cap: the merged list is too (no totalCount).
  const sum = payments.total === null || card.total === null ? null : payments.total + card.total;
  return { payments, card, total: carried !== undefined ? carried : sum };
}

export async function list(
  platformId: string,
  filter: repo.TransactionFilter,
  limit: number,
  order: 'asc' | 'desc',
  cursor?: string,
) {
  const req: ListRequest = { limit, cursor, order, filters: { ...filter } };
  const { payments, card, total } = await bothTables(platformId, filter, req);
  // Merged in (createdAt, id) order; rows of one table keep the order the database gave them.
  type Item = { createdAt: Date; id: string; present: () => AnyTransaction };
  const a: Item[] = payments.rows.map((r) => ({ createdAt: r.createdAt, id: r.id, present: () => toTransaction(r) }));
  const b: Item[] = card.rows.map((r) => ({ createdAt: r.createdAt, id: r.id, present: () => toCardTransaction(r) }));
  const before = (x: Item, y: Item) => {
    const d = x.createdAt.getTime() - y.createdAt.getTime();
    return (order === 'desc' ? -d : d) < 0 || (d === 0 && (order === 'desc' ? x.id > y.id : x.id < y.id));
  };
  const merged: Item[] = [];
  let i = 0;
  let j = 0;
  while (merged.length <= limit && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && before(a[i], b[j]))) merged.push(a[i++]);
    else merged.push(b[j++]);
  }
  const listed: Listed<Item> = { rows: merged, limit, total, fingerprint: fingerprintOf(req.filters, order) };
  return pageOf(listed, (x) => x.present());
}

/** One transaction of either kind (GET /transactions/{id}). */
export async function getAny(platformId: string, id: string): Promise<AnyTransaction> {
  if (id.startsWith('CardTransaction:')) {
    const row = await cards.findTransaction(platformId, id, db());
    if (!row) throw notFound('TRANSACTION_NOT_FOUND', `Transaction ${id}`);
    return toCardTransaction(row);
  }
  return get(platformId, id);
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
    let current = row;
    // A quote whose pull from the payer's bank may be with the rail cannot be failed now: the
    // debit could land after, with nothing left to send it back (rail-collect.ts cancellablePull).
    if (awaitsPull(row) && !(await cancellablePull(row, tx))) {
      current = (await repo.findById(platformId, id, tx))!;
      if (current.status !== 'PROCESSING') throw notCancellable(`it is ${current.status}`);
      if (current.collectedAt === null) throw notCancellable(PULL_WITH_RAIL);
    }
    // Money the rail pulled from the payer's bank goes back over the rail (rail-refund.ts), PENDING until it reports.
    const failure = refundsOverRail(current) ? overRail(CANCELLED) : CANCELLED;
    const done = current.type === 'OUTGOING' ? await failPayout(tx, current, failure) : await cancelPull(tx, current);
    if (!done) throw notCancellable('it settled meanwhile');
    return toTransaction(reason ? await repo.update(done.id, { platformReason: reason }, tx) : done);
  });
}
