import { parse, stringify } from 'lossless-json';

// Lossless JSON in and out. Node 20 has no JSON.rawJSON, and JSON.parse would turn
// 9007199254740993 into 9007199254740992, so bodies are parsed and written with lossless-json:
// an integer beyond the safe range becomes a bigint, and bigints are written as JSON numbers.
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

/** Serializes with bigints as exact JSON numbers and Dates as ISO strings. */
export function stringifyJson(value: unknown): string {
  return stringify(value) ?? 'null';
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
