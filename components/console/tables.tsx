import Link from 'next/link';
import type { AuditEntry } from '@/lib/staff/audit';
import type { Delivery } from '@/lib/webhooks/log';
import type { AnyTransaction } from '@/lib/payments/transactions/service';
import { isCardTransaction } from '@/lib/cards/presenter';
import { formatAmount, shortId } from '../format';
import { LocalTime } from '../time';
import { Badge, Cell, Empty, Table } from '../ui';
import type { Named } from '@/lib/staff/names';
import { CopyId } from './copy-id';
import { NamedRef } from './named';
import { auditActionLabel, auditDetailText } from './audit-actions';

// Tables the console shows on several pages (server components).

/** Where a transaction links: its own page (a card transaction's page sits under its card). */
export const transactionHref = (t: AnyTransaction) =>
  isCardTransaction(t)
    ? `/console/cards/${encodeURIComponent(t.cardId)}/transactions/${encodeURIComponent(t.id)}`
    : `/console/transactions/${encodeURIComponent(t.id)}`;
type Amount = { amount: bigint; currency: { code: string } };
/** What left the customer's account (a card purchase: its authorized amount). */
export const sentOf = (t: AnyTransaction): Amount | undefined =>
  isCardTransaction(t) ? (t.direction === 'DEBIT' ? t.authorizedAmount : undefined) : t.sentAmount;
export const receivedOf = (t: AnyTransaction): Amount | undefined =>
  isCardTransaction(t) ? (t.direction === 'CREDIT' ? t.authorizedAmount : undefined) : t.receivedAmount;

const KIND: Record<string, string> = { INCOMING: 'Incoming payment', OUTGOING: 'Outgoing payment', CARD: 'Card' };

/** A transaction as people name it: its description, a card purchase's merchant, or its kind. */
export function transactionTitle(t: AnyTransaction): string {
  if (isCardTransaction(t))
    return t.merchant?.descriptor ?? (t.direction === 'CREDIT' ? 'Card credit' : 'Card purchase');
  return t.description ?? KIND[t.type] ?? t.type;
}

type Json = Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/**
 * The other side of a transaction: an account id (named through the names read), an UMA address,
 * or a card purchase's merchant. The counterparty's own name, when the payment carried one, wins.
 */
export function counterpartyOf(t: AnyTransaction): { id?: string; label?: string } {
  if (isCardTransaction(t))
    return { label: [t.merchant?.descriptor, t.merchant?.country].filter(Boolean).join(', ') || undefined };
  const side = (t.type === 'INCOMING' ? t.source : t.destination) as Json;
  const info = ('counterpartyInformation' in t ? t.counterpartyInformation : undefined) as Json | undefined;
  const who = text(info?.fullName) ?? text(info?.legalName);
  const uma = text(side.umaAddress);
  const id = text(side.accountId) ?? text(side.customerId);
  if (id) return { id, label: who };
  return { label: who && uma ? `${who} (${uma})` : (who ?? uma) };
}

/** Ids a transactions table names: customers and counterparty accounts. */
export const transactionIds = (rows: AnyTransaction[]) =>
  rows.flatMap((t) => [t.customerId, counterpartyOf(t).id ?? '']).filter(Boolean);

const money = (a: Amount | undefined) => (a ? formatAmount(a.amount, a.currency.code) : '—');

function Amounts({ t }: { t: AnyTransaction }) {
  const sent = sentOf(t);
  const received = receivedOf(t);
  const converted = sent && received && sent.currency.code !== received.currency.code;
  return (
    <span className="whitespace-nowrap">
      {sent ? money(sent) : money(received)}
      {converted ? <span className="block text-xs text-slate-700">→ {money(received)}</span> : null}
    </span>
  );
}

/**
 * Payments and card transactions by what people recognise: description or merchant, customer
 * and counterparty by name (ids copyable beneath), status and amount. `names` comes from
 * lib/staff/names over transactionIds(rows); without it the ids show as they are.
 */
export function TransactionsTable({
  rows,
  caption,
  names = new Map(),
}: {
  rows: AnyTransaction[];
  caption: string;
  names?: Map<string, Named>;
}) {
  if (!rows.length) return <Empty>No transactions.</Empty>;
  return (
    <Table caption={caption} head={['Transaction', 'Customer', 'Counterparty', 'Status', 'Amount', 'Created']}>
      {rows.map((t) => {
        const other = counterpartyOf(t);
        const title = transactionTitle(t);
        const kind = KIND[t.type] ?? t.type;
        return (
          <tr key={t.id}>
            <Cell>
              <Link className="break-words text-blue-800 underline" href={transactionHref(t)}>
                {title}
              </Link>
              {title !== kind ? <span className="block text-xs text-slate-700">{kind}</span> : null}
              <CopyId id={t.id} />
            </Cell>
            <Cell>
              <NamedRef id={t.customerId} names={names} />
            </Cell>
            <Cell>
              {other.id ? (
                other.label ? (
                  <span className="block">
                    <span className="block break-words">{other.label}</span>
                    <NamedRef id={other.id} names={names} />
                  </span>
                ) : (
                  <NamedRef id={other.id} names={names} />
                )
              ) : (
                <span className="break-words">{other.label ?? '—'}</span>
              )}
            </Cell>
            <Cell>
              <Badge status={t.status} />
            </Cell>
            <Cell>
              <Amounts t={t} />
            </Cell>
            <Cell>
              <LocalTime value={t.createdAt} />
            </Cell>
          </tr>
        );
      })}
    </Table>
  );
}

/**
 * Webhook events. `names` (lib/staff/names, read for the rows' subjects) adds what each event is
 * about, by name — for the log of every event; a subject's own page leaves it out.
 */
export function DeliveriesTable({
  rows,
  caption,
  names,
}: {
  rows: Delivery[];
  caption: string;
  names?: Map<string, Named>;
}) {
  if (!rows.length) return <Empty>No webhook events.</Empty>;
  const head = ['Event', 'Type', ...(names ? ['About'] : []), 'Status', 'Attempts', 'Created'];
  return (
    <Table caption={caption} head={head}>
      {rows.map((d) => (
        <tr key={d.id}>
          <Cell mono>
            <Link className="text-blue-800 underline" href={`/console/webhooks/${encodeURIComponent(d.id)}`}>
              {shortId(d.id)}
            </Link>
          </Cell>
          {/* Breakable after each dot: INTERNAL_ACCOUNT.BALANCE_UPDATED would hold the column wide. */}
          <Cell>
            {d.type.split('.').map((part, i) => (
              <span key={i}>
                {i > 0 ? (
                  <>
                    .<wbr />
                  </>
                ) : null}
                {part}
              </span>
            ))}
          </Cell>
          {names ? (
            <Cell>
              <NamedRef id={d.subjectId} names={names} />
            </Cell>
          ) : null}
          <Cell>
            <Badge status={d.status} />
            {d.skipReason === 'KIND_NOT_CHOSEN' ? (
              <span className="ml-1 text-xs text-slate-700">kind not chosen</span>
            ) : null}
          </Cell>
          <Cell>
            {d.attempts}
            {d.lastAttempt ? (
              <span className="block text-xs text-slate-700">
                last:{' '}
                {d.lastAttempt.responseStatus !== null
                  ? `HTTP ${d.lastAttempt.responseStatus}`
                  : (d.lastAttempt.error ?? 'no answer')}
              </span>
            ) : null}
          </Cell>
          <Cell>
            <LocalTime value={d.createdAt} />
          </Cell>
        </tr>
      ))}
    </Table>
  );
}

export function AuditList({
  entries,
  showObject,
  names = new Map(),
}: {
  entries: AuditEntry[];
  showObject?: boolean;
  /** The objects by name (lib/staff/names), where they are named; the others show their id. */
  names?: Map<string, Named>;
}) {
  if (!entries.length) return <Empty>No staff action recorded.</Empty>;
  return (
    <ul className="divide-y divide-slate-100 text-sm">
      {entries.map((e) => (
        <li key={e.id} className="py-2">
          <span className="font-medium">{auditActionLabel(e.action)}</span>
          {showObject ? <AuditObject id={e.objectId} named={names.get(e.objectId)} /> : null}
          {e.outcome === 'STARTED' ? (
            // Written before the action ran and never marked done: running now, or its process
            // died before it answered; the object's own state tells whether it took effect.
            <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">
              started, outcome not recorded
            </span>
          ) : null}
          <span className="block text-slate-700">
            by {e.staffEmail}, <LocalTime value={e.createdAt} />
            {Object.keys(e.details).length ? (
              <span className="block break-words">{auditDetailText(e.details)}</span>
            ) : null}
          </span>
        </li>
      ))}
    </ul>
  );
}

function AuditObject({ id, named }: { id: string; named?: Named }) {
  if (!named) return <span className="ml-1 font-mono text-xs break-all">{shortId(id)}</span>;
  return (
    <span className="ml-1 break-words">
      {named.href ? (
        <Link className="text-blue-800 underline" href={named.href}>
          {named.name}
        </Link>
      ) : (
        named.name
      )}
    </span>
  );
}
