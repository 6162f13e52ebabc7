import { randomBytes } from 'node:crypto';
import { parse } from 'lossless-json';

// Lossless JSON in and out. Node 20 has no JSON.rawJSON, and JSON.parse would turn
// 9007199254740993 into 9007199254740992, so bodies are parsed with lossless-json (an integer
// beyond the safe range becomes a bigint) and written with bigints as exact JSON numbers.
const INTEGER = /^-?\d+$/;
const INTEGRAL_DECIMAL = /^(-?\d+)\.0+$/;

function parseNumber(text: string): number | bigint {
  const whole = INTEGER.test(text) ? text : INTEGRAL_DECIMAL.exec(text)?.[1];
  if (whole !== undefined) {
    const n = Number(whole);
    return Number.isSafeInteger(n) ? n : BigInt(whole);
  }
  // Fractions and exponents are never money (money is an integer in the smallest unit).
  return Number(text);
}

/** Parses JSON text; integers outside the safe range come back as bigint. Throws SyntaxError. */
export function parseJson(text: string): unknown {
  return parse(text, null, parseNumber);
}

// Writing uses the native JSON.stringify (several times faster than a serializer in JS; every
// response goes through here): a bigint is written as a string carrying this process's random
// marker, and the marked strings are then unquoted into plain numbers. No text can carry the
// marker by accident: it is unguessable, and JSON.stringify would escape nothing in it.
const MARKER = `~${randomBytes(12).toString('hex')}~`;
const MARKED = new RegExp(`"${MARKER}(-?\\d+)"`, 'g');

/** Serializes with bigints as exact JSON numbers and Dates as ISO strings. */
export function stringifyJson(value: unknown): string {
  let marked = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    marked = true;
    return MARKER + v.toString();
  });
  if (text === undefined) return 'null';
  return marked ? text.replace(MARKED, '$1') : text;
}

/** A value normalized for deep comparison or hashing: bigints and safe numbers compare equal. */
export function canonicalJson(value: unknown): string {
  return stringifyJson(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
