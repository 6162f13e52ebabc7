import 'server-only';
import { now } from '@/lib/core/clock';
import { runAs } from '@/lib/core/context';
import { db } from '@/lib/core/db';
import { DomainError } from '@/lib/core/errors';
import { csvFileName, csvHeaders, csvStream, type CsvPage, type CsvValue } from '@/lib/core/csv';
import { record } from '@/lib/staff/audit';
import type { StaffActor } from '@/lib/staff/roles';
import { currentStaff } from './auth';

// A console list's CSV download: the signed-in staff member (as for the list page), an audit entry
// naming the list and its filters, then the rows streamed page by page as that member, with the
// page size the API allows at most. A bad filter is refused before the download starts.
const PAGE = 100;

export interface ExportSpec<T> {
  list: string;
  filters: Record<string, string | undefined>;
  header: string[];
  page: (actor: StaffActor, limit: number, cursor: string | undefined) => Promise<CsvPage<T>>;
  row: (r: T) => CsvValue[];
}

export async function exportResponse<T>(spec: ExportSpec<T>): Promise<Response> {
  const actor = await currentStaff();
  if (!actor) return Response.json({ code: 'UNAUTHORIZED', message: 'Sign in to the console first' }, { status: 401 });
  const page = (cursor: string | undefined) => runAs(actor, () => spec.page(actor, PAGE, cursor));
  let first: CsvPage<T>;
  try {
    // The first page is read before answering so a refused filter is an error, not a broken file.
    first = await page(undefined);
  } catch (err) {
    if (err instanceof DomainError && err.code === 'INVALID_INPUT')
      return Response.json({ code: err.code, message: err.message, details: err.details }, { status: 400 });
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
