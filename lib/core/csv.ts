import { currencyInfo } from './currencies';

// CSV downloads of console lists (RFC 4180): every cell quoted when it holds a quote, comma or line
// break, and a cell a spreadsheet would read as a formula (starting = + - @ tab or CR) prefixed
// with ' so opening an export never runs what a customer typed into a name. Lists are streamed:
// the stream reads the next page of the list only when the reader asks for more, so a large list
// never sits in memory whole and the first rows leave before the last page is read.

export type CsvValue = string | number | bigint | boolean | Date | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = value instanceof Date ? value.toISOString() : String(value);
  // Numbers we write ourselves (amounts like -12.50) are data, not formulas; only text is guarded.
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: CsvValue[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** One page of a keyset-paged list: its rows and the cursor of the next page, if any. */
export interface CsvPage<T> {
  data: T[];
  nextCursor?: string;
}

/**
 * A CSV stream of every row of a list: the header, then each page's rows as `toRow` makes them,
 * paging with the list's own cursor until there is no next one. Pulled: one page per read.
 */
export function csvStream<T>(
  header: string[],
  page: (cursor: string | undefined) => Promise<CsvPage<T>>,
  toRow: (row: T) => CsvValue[],
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let started = false;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          // A byte-order mark so spreadsheet programs read the names as UTF-8.
          controller.enqueue(encoder.encode(`\uFEFF${csvLine(header)}`));
          return;
        }
        if (done) return controller.close();
        const p = await page(cursor);
        if (p.data.length) controller.enqueue(encoder.encode(p.data.map((r) => csvLine(toRow(r))).join('')));
        // A cursor that does not move would loop for ever; stop rather than repeat a page.
        if (!p.nextCursor || p.nextCursor === cursor || !p.data.length) done = true;
        cursor = p.nextCursor;
        if (done) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/** The download's file name: the list and the day, e.g. corridor-customers-2026-11-28.csv. */
export function csvFileName(list: string, at: Date): string {
  return `corridor-${list.replace(/[^a-z0-9-]/gi, '_')}-${at.toISOString().slice(0, 10)}.csv`;
}

export function csvHeaders(fileName: string): HeadersInit {
  return {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${fileName}"`,
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  };
}

/**
 * An amount in the smallest unit as a spreadsheet reads it in major units: "1234.50", "-0.05"
 * (no grouping, a plain minus, the currency's own decimals; the currency goes in its own column).
 */
export function majorUnits(amount: bigint, decimals: number): string {
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  return `${negative ? '-' : ''}${whole}${decimals ? `.${digits.slice(digits.length - decimals)}` : ''}`;
}

/**
 * An amount of `currency` as its own pair of cells: the major units and the code, both empty for
 * no amount (a limit not set, a side a transaction does not have).
 */
export function amountCells(amount: bigint | null | undefined, currency: string): [string, string] {
  if (amount === null || amount === undefined) return ['', ''];
  return [majorUnits(amount, currencyInfo(currency)?.decimals ?? 2), currency];
}
