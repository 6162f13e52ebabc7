// A CSV download read back as cells (RFC 4180, as lib/core/csv.ts writes it), for the export
// tests and the browser spec (e2e/console-export.spec.ts): no imports, so either can load it.

/** The CSV as rows of cells (quoted cells unquoted), header first. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  const cell = /("(?:[^"]|"")*"|[^,\r\n]*)(,|\r\n|$)/g;
  let row: string[] = [];
  for (const m of text.replace(/^\uFEFF/, '').matchAll(cell)) {
    if (m[0] === '') break;
    row.push(m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]);
    if (m[2] !== ',') {
      rows.push(row);
      row = [];
    }
  }
  return rows;
}
