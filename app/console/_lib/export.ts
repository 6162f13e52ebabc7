import 'server-only';
import { now } from '@/lib/core/clock';
import { runAs } from '@/lib/core/context';
import { db } from '@/lib/core/db';
import { DomainError } from '@/lib/core/errors';
import { missingRole } from '@/lib/core/command';
import { errorBody } from '@/lib/http/errors';
import { csvFileName, csvHeaders, csvStream, type CsvPage, type CsvValue } from '@/lib/core/csv';
import { record } from '@/lib/staff/audit';
import { namesOf, type Named } from '@/lib/staff/names';
import { hasRole, type StaffActor, type StaffRole } from '@/lib/staff/roles';
import { currentStaff } from './auth';

// A console list's CSV download: the signed-in staff member (as for the list page) holding the
// export's role, an audit entry naming the list and its filters, then the rows streamed page by
// page as that member, with the page size the API allows at most. A bad filter is refused before
// the download starts; every refusal is the API's error body, never a file.
const PAGE = 100;

export interface ExportSpec<T> {
  list: string;
  /** The role the download needs: viewer (whoever reads the list) unless the list says more. */
  role?: StaffRole;
  filters: Record<string, string | undefined>;
  header: string[];
  page: (actor: StaffActor, limit: number, cursor: string | undefined) => Promise<CsvPage<T>>;
  row: (r: T) => CsvValue[];
}

/** A refusal as the API answers one: its status and the reference's error body. */
function refusal(err: DomainError): Response {
  const body = errorBody(err);
  return Response.json(body, { status: body.status });
}

export async function exportResponse<T>(spec: ExportSpec<T>): Promise<Response> {
  const actor = await currentStaff();
  if (!actor) return refusal(new DomainError('UNAUTHORIZED', 'Sign in to the console first'));
  const role = spec.role ?? 'viewer';
  if (!hasRole(actor.role, role)) return refusal(missingRole(role, actor.role));
  const page = (cursor: string | undefined) => runAs(actor, () => spec.page(actor, PAGE, cursor));
  let first: CsvPage<T>;
  try {
    // The first page is read before answering so a refused filter is an error, not a broken file.
    first = await page(undefined);
  } catch (err) {
    if (err instanceof DomainError && err.code === 'INVALID_INPUT') return refusal(err);
    throw err;
  }
  const filters = Object.fromEntries(Object.entries(spec.filters).filter(([, v]) => v !== undefined));
  await record(actor, 'list.export', spec.list, { list: spec.list, filters }, db());
  let firstUsed = false;
  const stream = csvStream(
    spec.header,
    (cursor) => {
      if (firstUsed || cursor !== undefined) return page(cursor);
      firstUsed = true;
      return Promise.resolve(first);
    },
    spec.row,
  );
  return new Response(stream, { headers: csvHeaders(csvFileName(spec.list, now())) });
}

/** A page's rows each with the names of the ids `idsOf` finds in the page (one read per page). */
export async function withNames<T>(
  platformId: string,
  p: CsvPage<T>,
  idsOf: (rows: T[]) => string[],
): Promise<CsvPage<{ r: T; names: Map<string, Named> }>> {
  const names = await namesOf(platformId, idsOf(p.data), db());
  return { data: p.data.map((r) => ({ r, names })), nextCursor: p.nextCursor };
}
