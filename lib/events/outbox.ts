import { newId } from '../core/ids';
import { now } from '../core/clock';
import type { Tx } from '../core/db';
import { stringifyJson } from '../core/json';
import type { RowWrite } from '../core/sql';
import { currentTraceParent } from '../core/tracing';

// The outbox: every state change that the interface announces as a webhook is recorded here, in
// the transaction that makes the change, so an event exists exactly when its change committed.
// Delivery (signing, retries) reads these rows later and never blocks the request.
export type EventType =
  | 'OUTGOING_PAYMENT.PENDING'
  | 'OUTGOING_PAYMENT.PENDING_AUTHORIZATION'
  | 'OUTGOING_PAYMENT.PROCESSING'
  | 'OUTGOING_PAYMENT.COMPLETED'
  | 'OUTGOING_PAYMENT.FAILED'
  | 'OUTGOING_PAYMENT.EXPIRED'
  | 'OUTGOING_PAYMENT.REFUND_PENDING'
  | 'OUTGOING_PAYMENT.REFUND_COMPLETED'
  | 'OUTGOING_PAYMENT.REFUND_FAILED'
  | 'INCOMING_PAYMENT.PENDING'
  | 'INCOMING_PAYMENT.COMPLETED'
  | 'INCOMING_PAYMENT.FAILED'
  | 'INCOMING_PAYMENT.REFUND_PENDING'
  | 'INCOMING_PAYMENT.REFUND_COMPLETED'
  | 'INCOMING_PAYMENT.REFUND_FAILED'
  | 'CUSTOMER.KYC_APPROVED'
  | 'CUSTOMER.KYC_REJECTED'
  | 'CUSTOMER.KYC_PENDING'
  | 'CUSTOMER.KYB_APPROVED'
  | 'CUSTOMER.KYB_REJECTED'
  | 'CUSTOMER.KYB_PENDING'
  | 'VERIFICATION.APPROVED'
  | 'VERIFICATION.REJECTED'
  | 'VERIFICATION.RESOLVE_ERRORS'
  | 'VERIFICATION.IN_PROGRESS'
  | 'VERIFICATION.PENDING_MANUAL_REVIEW'
  | 'VERIFICATION.READY_FOR_VERIFICATION'
  | 'EXTERNAL_ACCOUNT.STATUS_UPDATED'
  | 'INTERNAL_ACCOUNT.BALANCE_UPDATED'
  | 'INTERNAL_ACCOUNT.STATUS_UPDATED'
  | 'INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED'
  | 'INVITATION.CLAIMED'
  | 'BULK_UPLOAD.COMPLETED'
  | 'BULK_UPLOAD.FAILED'
  | 'AGENT_ACTION.PENDING_APPROVAL'
  | 'CARD.STATE_CHANGE'
  | 'CARD.FUNDING_SOURCE_CHANGE'
  | 'CARD_TRANSACTION.AUTHORIZED'
  | 'CARD_TRANSACTION.PARTIALLY_SETTLED'
  | 'CARD_TRANSACTION.SETTLED'
  | 'CARD_TRANSACTION.REFUNDED'
  | 'CARD_TRANSACTION.EXCEPTION'
  | 'TEST';

export async function recordEvent(tx: Tx, platformId: string, type: EventType, data: unknown): Promise<string> {
  return (await recordEvents(tx, platformId, [{ type, data }]))[0];
}

/** An Event row ready to insert (for statements that write it with other rows). */
export function eventRow(platformId: string, type: EventType, data: unknown, at: Date = now(), id = newId('Webhook')) {
  const subject = (data as { id?: unknown } | null)?.id;
  const row = {
    id,
    platformId,
    type,
    payload: stringifyJson({ id, type, timestamp: at, data }),
    createdAt: at,
    subjectId: typeof subject === 'string' ? subject : null,
  };
  // Traces on: the span recording it (a request's or a job's), which each delivery attempt's span
  // links back to (lib/webhooks/service.ts). Off, the row is what it always was.
  const traceParent = currentTraceParent();
  return traceParent ? { ...row, traceParent } : row;
}

/** Events of one change as rows of a step written in one statement (ledger.runStep). */
export function eventWrites(
  platformId: string,
  events: { type: EventType; data: unknown }[],
  at: Date = now(),
): RowWrite[] {
  return events.map(({ type, data }) => ({ table: 'Event', row: eventRow(platformId, type, data, at) }));
}

/** Several events of one change in one statement, in order. */
export async function recordEvents(
  tx: Tx,
  platformId: string,
  events: { type: EventType; data: unknown }[],
): Promise<string[]> {
  const at = now();
  const rows = events.map(({ type, data }) => eventRow(platformId, type, data, at));
  if (rows.length === 1) await tx.event.create({ data: rows[0] });
  else if (rows.length) await tx.event.createMany({ data: rows });
  return rows.map((r) => r.id);
}

/** Recorded events of a platform, oldest first (tests and the console read these). */
export async function eventsOf(platformId: string, type?: string) {
  const { db } = await import('../core/db');
  const rows = await db().event.findMany({ where: { platformId, ...(type ? { type } : {}) }, orderBy: { seq: 'asc' } });
  const { parseJson } = await import('../core/json');
  return rows.map((r) => ({
    ...r,
    body: parseJson(r.payload) as { id: string; type: string; timestamp: string; data: Record<string, unknown> },
  }));
}
