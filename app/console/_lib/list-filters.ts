import 'server-only';
import { normalizeEmail } from '@/lib/staff/service';
import type { StaffRole } from '@/lib/staff/roles';
import { AUDIT_ACTIONS } from '@/components/console/audit-actions';
import { param } from './read';

// The filters of each console list, read from its search parameters in one place: the list page
// shows the rows they select and its CSV export (app/console/export) writes the same rows, so
// the two cannot drift apart. A value outside a select's options is ignored, as the form would.

export type SearchParams = Record<string, string | string[] | undefined>;

/** Search parameters as the plain record the pages receive (an export gets them from its URL). */
export function searchOf(url: URL): SearchParams {
  const out: SearchParams = {};
  for (const key of new Set(url.searchParams.keys())) out[key] = url.searchParams.getAll(key);
  return out;
}

const oneOf = (value: string | undefined, options: readonly string[]) =>
  value && options.includes(value) ? value : undefined;

export const CUSTOMER_STATUSES = ['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD'] as const;

export function customerFilters(sp: SearchParams) {
  return {
    q: param(sp.q),
    status: oneOf(param(sp.status), CUSTOMER_STATUSES),
    type: oneOf(param(sp.type), ['INDIVIDUAL', 'BUSINESS']),
  };
}

/** The customers service's filter for them. */
export const customerQuery = (f: ReturnType<typeof customerFilters>) => ({
  search: f.q,
  verificationStatus: f.status,
  customerType: f.type,
});

export const TRANSACTION_STATUSES = [
  'CREATED',
  'PENDING',
  'PENDING_AUTHORIZATION',
  'PROCESSING',
  'COMPLETED',
  'REJECTED',
  'FAILED',
  'REFUNDED',
  'EXPIRED',
] as const;

/** A YYYY-MM-DD day as the start (or end) of that UTC day. */
function dateParam(v: string | undefined, endOfDay = false): Date | undefined {
  if (!v || !/^\d{4}-\d{2}-\d{2}$/.test(v)) return undefined;
  const d = new Date(`${v}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

export function transactionFilters(sp: SearchParams) {
  return {
    status: oneOf(param(sp.status), TRANSACTION_STATUSES),
    type: oneOf(param(sp.type), ['INCOMING', 'OUTGOING']),
    customerId: param(sp.customerId),
    from: param(sp.from),
    to: param(sp.to),
    rail: oneOf(param(sp.rail), RAIL_FILTERS) as (typeof RAIL_FILTERS)[number] | undefined,
  };
}

/** The console-only rail filter (lib/payments/transactions/repository.ts TransactionFilter.rail). */
export const RAIL_FILTERS = ['WAITING', 'STAFF'] as const;

/** The transactions service's filter for them (the dates are whole UTC days). */
export const transactionQuery = (f: ReturnType<typeof transactionFilters>) => ({
  rail: f.rail,
  status: f.status,
  type: f.type,
  customerId: f.customerId,
  startDate: dateParam(f.from),
  endDate: dateParam(f.to, true),
});

const FLAGS = ['true', 'false'] as const;
const flagOf = (v: string | undefined) => (v === undefined ? undefined : v === 'true');

export function agentFilters(sp: SearchParams) {
  return {
    customerId: param(sp.customerId),
    isPaused: oneOf(param(sp.isPaused), FLAGS),
    isConnected: oneOf(param(sp.isConnected), FLAGS),
  };
}

/** The agents service's filter for them (a page adds its limit and cursor). */
export const agentQuery = (f: ReturnType<typeof agentFilters>) => ({
  customerId: f.customerId,
  isPaused: flagOf(f.isPaused),
  isConnected: flagOf(f.isConnected),
});

export const CARD_STATES = ['PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'] as const;

export function cardFilters(sp: SearchParams) {
  return { state: oneOf(param(sp.state), CARD_STATES), cardholderId: param(sp.cardholderId) };
}

/** The cards service's filter for them. */
export const cardQuery = (f: ReturnType<typeof cardFilters>) => ({ state: f.state, cardholderId: f.cardholderId });

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED', 'SKIPPED'] as const;

export function webhookFilters(sp: SearchParams) {
  return { status: oneOf(param(sp.status), DELIVERY_STATUSES), type: param(sp.type, 64) };
}

/** The delivery log's filter for them. */
export const webhookQuery = (f: ReturnType<typeof webhookFilters>) => ({ status: f.status, type: f.type });

export function auditFilters(sp: SearchParams) {
  return {
    actor: param(sp.actor, 254),
    action: oneOf(param(sp.action), Object.keys(AUDIT_ACTIONS)),
    from: param(sp.from),
    to: param(sp.to),
  };
}

/**
 * The audit log's filter for them: the actor is the staff member's email as recorded (compared
 * as sign-in normalises it), the dates whole UTC days.
 */
export const auditQuery = (f: ReturnType<typeof auditFilters>) => ({
  staffEmail: f.actor ? normalizeEmail(f.actor) : undefined,
  action: f.action,
  from: dateParam(f.from),
  to: dateParam(f.to, true),
});

/**
 * Exporting the audit log needs the admin role, though every role reads it page by page: the file
 * is every staff member's actions and sign-in addresses in one copy that leaves the console, the
 * kind of decision the admin role holds (as with tokens and staff accounts).
 */
export const AUDIT_EXPORT_ROLE: StaffRole = 'admin';
