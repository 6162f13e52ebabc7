import 'server-only';
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
  };
}

/** The transactions service's filter for them (the dates are whole UTC days). */
export const transactionQuery = (f: ReturnType<typeof transactionFilters>) => ({
  status: f.status,
  type: f.type,
  customerId: f.customerId,
  startDate: dateParam(f.from),
  endDate: dateParam(f.to, true),
});
