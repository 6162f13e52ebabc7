import { describe, expect, it } from 'vitest';
import { canonicalJson, parseJson, stringifyJson } from './json';

describe('lossless JSON', () => {
  it('writes bigints as exact numbers anywhere, and everything else as JSON.stringify does', () => {
    const at = new Date('2026-11-21T10:11:12.345Z');
    const value = {
      a: 9007199254740993n,
      b: [-9007199254740995n, 1n, 2],
      c: { d: 'x"y\\', e: undefined, f: null, at },
      g: 1.5,
    };
    const text = stringifyJson(value);
    expect(text).toBe(
      '{"a":9007199254740993,"b":[-9007199254740995,1,2],"c":{"d":"x\\"y\\\\","f":null,"at":"2026-11-21T10:11:12.345Z"},"g":1.5}',
    );
    expect(parseJson(text)).toEqual({
      a: 9007199254740993n,
      b: [-9007199254740995n, 1, 2],
      c: { d: 'x"y\\', f: null, at: at.toISOString() },
      g: 1.5,
    });
  });

  it('leaves strings that look like numbers or markers alone', () => {
    const tricky = { s: '123', t: '"~abc~5"', u: '~0123456789abcdef01234567~42' };
    expect(parseJson(stringifyJson({ ...tricky, n: 5n }))).toEqual({ ...tricky, n: 5 });
  });

  it('writes a lone value, and nothing as null', () => {
    expect(stringifyJson(12345678901234567890n)).toBe('12345678901234567890');
    expect(stringifyJson(undefined)).toBe('null');
    expect(canonicalJson({ b: 1n, a: 2 })).toBe('{"a":2,"b":1}');
  });
});
