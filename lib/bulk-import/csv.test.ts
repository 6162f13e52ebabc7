import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, parseCsv } from './csv';

describe('parseCsv (RFC 4180)', () => {
  it('splits records on CRLF and fields on commas', () => {
    expect(parseCsv('a,b,c\r\n1,2,3\r\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
  });

  it('accepts LF and bare CR line breaks and a missing final line break', () => {
    expect(parseCsv('a,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(parseCsv('a\r1\r')).toEqual([['a'], ['1']]);
  });

  it('keeps empty fields, including a trailing one', () => {
    expect(parseCsv('a,,c,\r\n,,,')).toEqual([
      ['a', '', 'c', ''],
      ['', '', '', ''],
    ]);
  });

  it('reads quoted fields with commas, line breaks and doubled quotes', () => {
    expect(parseCsv('"x, y","line1\r\nline2","say ""hi""",""\r\nz')).toEqual([
      ['x, y', 'line1\r\nline2', 'say "hi"', ''],
      ['z'],
    ]);
    expect(parseCsv('""""')).toEqual([['"']]);
    expect(parseCsv('"a\nb"\n"c"')).toEqual([['a\nb'], ['c']]);
  });

  it('returns blank lines as one-empty-field records so positions match the file', () => {
    expect(parseCsv('h\r\n\r\nv\r\n')).toEqual([['h'], [''], ['v']]);
    expect(parseCsv('')).toEqual([]);
  });

  it('keeps spaces (they are part of the field)', () => {
    expect(parseCsv(' a , b ')).toEqual([[' a ', ' b ']]);
  });

  it('refuses an unclosed quote, naming the line it opened on', () => {
    const err = (() => {
      try {
        parseCsv('a,b\r\n1,"open\r\nstill open');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(CsvSyntaxError);
    expect((err as CsvSyntaxError).line).toBe(2);
    expect((err as Error).message).toMatch(/not closed/);
  });

  it('refuses text after a closing quote and a quote inside an unquoted field', () => {
    expect(() => parseCsv('"a"b,c')).toThrow(/after a closing quote/);
    expect(() => parseCsv('ok\r\nab"c,d')).toThrow(/line 2: a quote inside an unquoted field/);
    expect(() => parseCsv(' "a"')).toThrow(CsvSyntaxError);
  });

  it('counts physical lines across quoted line breaks in error positions', () => {
    expect(() => parseCsv('"multi\nline",x\nbad"quote')).toThrow(/line 3/);
  });

  it('round-trips any fields written the RFC 4180 way', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = ['a', 'Z', '9', ' ', ',', '"', '\r\n', '\n', 'é', '😀'];
    const quote = (f: string) => (/[",\r\n]/.test(f) || f === '' ? `"${f.replace(/"/g, '""')}"` : f);
    for (let round = 0; round < 200; round++) {
      const records = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
        Array.from({ length: 1 + Math.floor(random() * 5) }, () =>
          Array.from({ length: Math.floor(random() * 6) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(
            '',
          ),
        ),
      );
      const text = records.map((r) => r.map(quote).join(',')).join('\r\n') + (random() < 0.5 ? '\r\n' : '');
      expect(parseCsv(text)).toEqual(records);
    }
  });
});
