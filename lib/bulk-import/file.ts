import { invalidInput, type FieldError } from '../core/errors';
import { CsvSyntaxError, parseCsv } from './csv';

// The shape of an uploaded customer file (reference: POST /customers/bulk/csv, "CSV Format").
// Everything here is about the file as a whole; a problem found here refuses the upload with 400
// and stores nothing. Problems with one customer's values are the job's per-row errors.
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
export const MAX_ROWS = 10_000;

/** Columns the reference requires in every file. */
export const REQUIRED_COLUMNS = ['umaAddress', 'platformCustomerId', 'customerType'] as const;

/** Every column the reference names, plus `businessIncorporatedOn` (see below). */
export const KNOWN_COLUMNS = [
  ...REQUIRED_COLUMNS,
  'fullName',
  'birthDate',
  'email',
  'businessLegalName',
  'businessRegistrationNumber',
  'businessTaxId',
  // Our addition: businesses need an incorporation date (BusinessInfo.incorporatedOn is
  // required), which the reference's column list has no place for.
  'businessIncorporatedOn',
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'postalCode',
  'country',
  // Accepted for compatibility with files made for the reference; no customer field holds them.
  'platformAccountId',
  'description',
] as const;
export type Column = (typeof KNOWN_COLUMNS)[number];

export interface FileRow {
  /** Position of the record in the file, the header being row 1 (as spreadsheets number rows). */
  rowNumber: number;
  /** Non-empty cells by column, trimmed. */
  data: Partial<Record<Column, string>>;
}

const refuse = (message: string, field = 'file', extra: Partial<FieldError> = {}) =>
  invalidInput(message, [{ field, message, ...extra }]);

function decode(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw refuse('The file is not valid UTF-8 text; save the CSV with UTF-8 encoding');
  }
  if (text.includes('\u0000'))
    throw refuse('The file contains NUL bytes; upload a CSV text file, not a spreadsheet or binary file');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // spreadsheet exports often start with a BOM
}

/** Header names matched case-insensitively to the reference's spelling. */
function readHeader(cells: string[]): Column[] {
  const byLower = new Map(KNOWN_COLUMNS.map((c) => [c.toLowerCase(), c]));
  const columns: Column[] = [];
  const unknown: string[] = [];
  for (const raw of cells) {
    const name = raw.trim();
    const column = byLower.get(name.toLowerCase());
    if (!column) unknown.push(name === '' ? '(empty)' : name);
    else if (columns.includes(column)) throw refuse(`The header names column ${column} twice`, 'file.header');
    else columns.push(column);
  }
  if (unknown.length) {
    throw refuse(
      `Unknown column(s) in the header row: ${unknown.join(', ')}. Allowed columns: ${KNOWN_COLUMNS.join(', ')}`,
      'file.header',
      {
        constraint: { enum: [...KNOWN_COLUMNS] },
      },
    );
  }
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length) throw refuse(`The header row lacks required column(s): ${missing.join(', ')}`, 'file.header');
  return columns;
}

/** Checks and reads an uploaded customer file: UTF-8 CSV, a header row, 1..MAX_ROWS customer rows. */
export function readCustomerFile(bytes: Uint8Array): FileRow[] {
  if (bytes.byteLength === 0) throw refuse('The file is empty; it needs a header row and at least one customer row');
  if (bytes.byteLength > MAX_FILE_BYTES)
    throw refuse(
      `The file is larger than the ${MAX_FILE_BYTES / 1024 / 1024} MiB limit; split it into several uploads`,
    );
  let records: string[][];
  try {
    records = parseCsv(decode(bytes));
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw refuse(`Malformed CSV: ${err.message}`);
    throw err;
  }
  const headerAt = records.findIndex((r) => !(r.length === 1 && r[0].trim() === ''));
  if (headerAt < 0) throw refuse('The file has no header row');
  const columns = readHeader(records[headerAt]);
  const rows: FileRow[] = [];
  for (let i = headerAt + 1; i < records.length; i++) {
    const cells = records[i];
    if (cells.every((c) => c.trim() === '')) continue; // blank line
    const rowNumber = i + 1;
    // Short rows are padded (the reference's own example omits trailing empty cells); cells
    // beyond the header cannot be attributed to a column, so they refuse the file.
    if (cells.slice(columns.length).some((c) => c.trim() !== '')) {
      throw refuse(
        `Row ${rowNumber} has ${cells.length} fields but the header names ${columns.length} columns`,
        `file.row[${rowNumber}]`,
      );
    }
    const data: FileRow['data'] = {};
    columns.forEach((column, k) => {
      const value = (cells[k] ?? '').trim();
      if (value !== '') data[column] = value;
    });
    rows.push({ rowNumber, data });
    if (rows.length > MAX_ROWS)
      throw refuse(`The file has more than ${MAX_ROWS} customer rows; split it into several uploads`);
  }
  if (!rows.length) throw refuse('The file has a header row but no customer rows');
  return rows;
}
