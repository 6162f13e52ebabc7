// A small RFC 4180 reader: comma-separated fields, records ended by CRLF (a bare LF or CR is
// accepted too, as spreadsheet exports on every system produce them), fields optionally enclosed
// in double quotes, where they may hold commas, line breaks and doubled quotes ("" = one ").
// Written here rather than taken as a dependency: the format is small and its edge cases are
// what the tests pin down.

export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    /** 1-based physical line of the problem. */
    readonly line: number,
  ) {
    super(`CSV line ${line}: ${message}`);
  }
}

/**
 * Parses `text` into records of fields. Every record is returned, blank lines included (as a
 * record of one empty field), so record positions match the file; a line break at the very end
 * does not start another record. Quotes are only special at the start of a field: a quote inside
 * an unquoted field, or text after a closing quote, is an error rather than a guess.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  const n = text.length;
  // A run of ordinary characters: everything up to the next comma, line break or quote.
  const plain = /[^,\r\n"]*/y;
  let record: string[] = [];
  let line = 1;
  let i = 0;

  /** Length of the line break at `at` (CRLF = 2, LF or CR = 1), or 0. */
  const lineBreak = (at: number) => (text[at] === '\r' ? (text[at + 1] === '\n' ? 2 : 1) : text[at] === '\n' ? 1 : 0);

  while (i < n) {
    let field: string;
    if (text[i] === '"') {
      // Quoted field: runs to the next quote that is not doubled.
      const openedOn = line;
      let value = '';
      let from = i + 1;
      for (;;) {
        const q = text.indexOf('"', from);
        if (q < 0) throw new CsvSyntaxError('a quoted field is not closed (missing ")', openedOn);
        value += text.slice(from, q);
        if (text[q + 1] === '"') {
          value += '"';
          from = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      line += countLineBreaks(value);
      field = value;
      if (i < n && text[i] !== ',' && !lineBreak(i)) {
        throw new CsvSyntaxError(
          'unexpected text after a closing quote (a quote inside a quoted field must be doubled: "")',
          line,
        );
      }
    } else {
      plain.lastIndex = i;
      plain.test(text);
      field = text.slice(i, plain.lastIndex);
      i = plain.lastIndex;
      if (text[i] === '"')
        throw new CsvSyntaxError(
          'a quote inside an unquoted field (enclose the field in quotes and double the quote: "")',
          line,
        );
    }
    record.push(field);
    if (i >= n) break;
    if (text[i] === ',') {
      i++;
      // A comma at the very end still ends a field: the record gets a last, empty one.
      if (i >= n) record.push('');
      continue;
    }
    // Otherwise a line break ends the record.
    const br = lineBreak(i);
    records.push(record);
    record = [];
    line++;
    i += br;
  }
  if (record.length) records.push(record);
  return records;
}

function countLineBreaks(s: string): number {
  let count = 0;
  for (let k = 0; k < s.length; k++) {
    if (s[k] === '\n') count++;
    else if (s[k] === '\r' && s[k + 1] !== '\n') count++;
  }
  return count;
}
