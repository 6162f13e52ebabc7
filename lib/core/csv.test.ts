import { describe, expect, it } from 'vitest';
import { amountCells, csvCell, csvFileName, csvLine, csvStream, majorUnits, type CsvPage } from './csv';

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe('csvCell', () => {
  it('quotes cells holding quotes, commas and line breaks', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(12n)).toBe('12');
    expect(csvCell(new Date('2026-11-28T10:00:00Z'))).toBe('2026-11-28T10:00:00.000Z');
  });

  it('neutralises text a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    // Numbers are written by us, not typed by anyone: a negative amount stays a number.
    expect(csvCell(-12.5)).toBe('-12.5');
  });

  it('ends lines with CRLF', () => {
    expect(csvLine(['a', 'b,c', null])).toBe('a,"b,c",\r\n');
  });

  it('names the file after the list and the day', () => {
    expect(csvFileName('customers', new Date('2026-11-28T23:59:00Z'))).toBe('corridor-customers-2026-11-28.csv');
  });
});

describe('majorUnits', () => {
  it('writes the smallest unit in major units with the currency decimals', () => {
    expect(majorUnits(123450n, 2)).toBe('1234.50');
    expect(majorUnits(-5n, 2)).toBe('-0.05');
    expect(majorUnits(1500n, 0)).toBe('1500');
    expect(majorUnits(1n, 8)).toBe('0.00000001');
  });
});

describe('amountCells', () => {
  it('pairs the major units, in the currency’s own decimals, with its code; no amount is two empty cells', () => {
    expect(amountCells(12345n, 'USD')).toEqual(['123.45', 'USD']);
    expect(amountCells(1500n, 'VND')).toEqual(['1500', 'VND']);
    expect(amountCells(100_000_000n, 'BTC')).toEqual(['1.00000000', 'BTC']);
    expect(amountCells(null, 'USD')).toEqual(['', '']);
    expect(amountCells(undefined, 'USD')).toEqual(['', '']);
  });
});

describe('csvStream', () => {
  // 7 pages of 3 rows, keyset-paged: the cursor is the last id shown.
  const rows = Array.from({ length: 20 }, (_, i) => ({ id: `r${String(i).padStart(2, '0')}` }));
  function pager(log: string[]) {
    return async (cursor: string | undefined): Promise<CsvPage<{ id: string }>> => {
      log.push(`page:${cursor ?? ''}`);
      const start = cursor ? rows.findIndex((r) => r.id === cursor) + 1 : 0;
      const data = rows.slice(start, start + 3);
      return { data, nextCursor: start + 3 < rows.length ? data[data.length - 1].id : undefined };
    };
  }

  it('writes every row of every page once, in order', async () => {
    const text = await readAll(csvStream(['Id'], pager([]), (r) => [r.id]));
    const lines = text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('Id');
    expect(lines.slice(1)).toEqual(rows.map((r) => r.id));
  });

  it('reads a page only when the reader asks for more', async () => {
    const log: string[] = [];
    const reader = csvStream(['Id'], pager(log), (r) => [r.id]).getReader();
    const decode = (c?: Uint8Array) => new TextDecoder().decode(c);
    expect(decode((await reader.read()).value)).toContain('Id');
    expect(log).toEqual([]);
    expect(decode((await reader.read()).value)).toBe('r00\r\nr01\r\nr02\r\n');
    // The first rows are out while only one of the seven pages has been read.
    expect(log).toEqual(['page:']);
    await reader.cancel();
    expect(log).toHaveLength(1);
  });

  it('stops on a cursor that does not move instead of repeating a page', async () => {
    const text = await readAll(
      csvStream(
        ['Id'],
        async () => ({ data: [{ id: 'x' }], nextCursor: 'same' }),
        (r) => [r.id],
      ),
    );
    expect(
      text
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n'),
    ).toEqual(['Id', 'x', 'x']);
  });
});
