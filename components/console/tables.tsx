import Link from 'next/link';
import type { AuditEntry } from '@/lib/staff/audit';
import type { Delivery } from '@/lib/webhooks/log';
import type { AnyTransaction } from '@/lib/payments/transactions/service';
import { isCardTransaction } from '@/lib/cards/presenter';
import { formatAmount, shortId } from '../format';
import { LocalTime } from '../time';
import { Badge, Cell, Empty, Table } from '../ui';

// Tables the console shows on several pages (server components).

/** Where a transaction links: its own page, or for a card transaction its card's page. */
export const transactionHref = (t: AnyTransaction) =>
  isCardTransaction(t)
    ? `/console/cards/${encodeURIComponent(t.cardId)}`
    : `/console/transactions/${encodeURIComponent(t.id)}`;
type Amount = { amount: bigint; currency: { code: string } };
/** What left the customer's account (a card purchase: its authorized amount). */
export const sentOf = (t: AnyTransaction): Amount | undefined =>
  isCardTransaction(t) ? (t.direction === 'DEBIT' ? t.authorizedAmount : undefined) : t.sentAmount;
export const receivedOf = (t: AnyTransaction): Amount | undefined =>
  isCardTransaction(t) ? (t.direction === 'CREDIT' ? t.authorizedAmount : undefined) : t.receivedAmount;

const money = (a: Amount | undefined) => (a ? formatAmount(a.amount, a.currency.code) : '—');

export function TransactionsTable({ rows, caption }: { rows: AnyTransaction[]; caption: string }) {
  if (!rows.length) return <Empty>No transactions.</Empty>;
  return (
    <Table caption={caption} head={['Transaction', 'Type', 'Status', 'Sent', 'Received', 'Created']}>
      {rows.map((t) => (
        <tr key={t.id}>
          <Cell mono>
            <Link className="text-blue-800 underline" href={transactionHref(t)}>
              {shortId(t.id)}
            </Link>
          </Cell>
          <Cell>{t.type}</Cell>
          <Cell>
            <Badge status={t.status} />
          </Cell>
          <Cell>{money(sentOf(t))}</Cell>
          <Cell>{money(receivedOf(t))}</Cell>
          <Cell>
            <LocalTime value={t.createdAt} />
          </Cell>
        </tr>
      ))}
    </Table>
  );
}

export function DeliveriesTable({ rows, caption }: { rows: Delivery[]; caption: string }) {
  if (!rows.length) return <Empty>No webhook events.</Empty>;
  return (
    <Table caption={caption} head={['Event', 'Type', 'Status', 'Attempts', 'Last response', 'Created']}>
      {rows.map((d) => (
        <tr key={d.id}>
          <Cell mono>
            <Link className="text-blue-800 underline" href={`/console/webhooks/${encodeURIComponent(d.id)}`}>
              {shortId(d.id)}
            </Link>
          </Cell>
          <Cell>{d.type}</Cell>
          <Cell>
            <Badge status={d.status} />
          </Cell>
          <Cell>{d.attempts}</Cell>
          <Cell>
            {d.lastAttempt
              ? d.lastAttempt.responseStatus !== null
                ? `HTTP ${d.lastAttempt.responseStatus}`
                : (d.lastAttempt.error ?? 'no answer')
              : '—'}
          </Cell>
          <Cell>
            <LocalTime value={d.createdAt} />
          </Cell>
        </tr>
      ))}
    </Table>
  );
}

const ACTIONS: Record<string, string> = {
  'verification.approve': 'Approved the verification',
  'verification.reject': 'Rejected the verification',
  'webhook.replay': 'Replayed the webhook',
  'sandbox.clock.advance': 'Advanced the sandbox clock',
  'token.create': 'Created the API token',
  'token.revoke': 'Revoked the API token',
  'config.update': 'Changed the configuration',
  'staff.create': 'Added the staff user',
  'staff.role': 'Changed the role',
  'staff.disable': 'Disabled the staff user',
  'staff.enable': 'Enabled the staff user',
  'staff.sign_in': 'Signed in',
  'staff.sign_in_refused': 'Sign-in refused',
  'card.frozen': 'Froze the card',
  'card.active': 'Unfroze the card',
  'card.closed': 'Closed the card',
  'agent_action.approve': 'Approved the agent action',
  'agent_action.reject': 'Rejected the agent action',
  'agent.pause': 'Paused the agent',
  'agent.resume': 'Resumed the agent',
  'agent.policy.update': "Changed the agent's policy",
  'agent.device_code.regenerate': 'Generated a new device code',
};

export function AuditList({ entries, showObject }: { entries: AuditEntry[]; showObject?: boolean }) {
  if (!entries.length) return <Empty>No staff action recorded.</Empty>;
  return (
    <ul className="divide-y divide-slate-100 text-sm">
      {entries.map((e) => (
        <li key={e.id} className="py-2">
          <span className="font-medium">{ACTIONS[e.action] ?? e.action}</span>
          {showObject ? <span className="ml-1 font-mono text-xs">{shortId(e.objectId)}</span> : null}
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
              <span className="block font-mono text-xs break-all">{JSON.stringify(e.details)}</span>
            ) : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
