import { z } from 'zod';
import { invalidInput, type FieldError } from './errors';
import { strictRequests } from './mode';

// Turns zod issues into the specification's field errors: one entry per invalid field,
// `field` in dot notation (array positions in brackets), with the violated constraint.
export function fieldPath(path: PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(body)';
}

/** The value at `path` in what was parsed (zod reports an issue's input only when asked to). */
function valueAt(value: unknown, path: PropertyKey[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function describe(issue: z.core.$ZodIssue, value: unknown): Pick<FieldError, 'message' | 'constraint'> {
  switch (issue.code) {
    case 'invalid_type':
      return valueAt(value, issue.path) === undefined
        ? { message: 'is required' }
        : {
            message: `must be ${issue.expected === 'bigint' ? 'an integer' : issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`}`,
          };
    case 'invalid_value':
      return {
        message: `must be one of ${issue.values.map(String).join(', ')}`,
        constraint: { enum: issue.values.map(String) },
      };
    case 'invalid_format': {
      const fmt = issue.format === 'regex' ? undefined : issue.format;
      const message = fmt
        ? `must be a valid ${fmt === 'date' ? 'date (YYYY-MM-DD)' : fmt === 'datetime' ? 'ISO 8601 date-time' : fmt}`
        : issue.message;
      return {
        message,
        constraint: fmt
          ? { format: fmt }
          : { pattern: (issue as { pattern?: string }).pattern?.replace(/^\/|\/$/g, '') },
      };
    }
    case 'too_small':
      if (issue.origin === 'string')
        return {
          message: `must be at least ${issue.minimum} characters`,
          constraint: { minLength: Number(issue.minimum) },
        };
      if (issue.origin === 'array') return { message: `must have at least ${issue.minimum} item(s)` };
      return { message: `must be ${issue.inclusive ? '>=' : '>'} ${issue.minimum}` };
    case 'too_big':
      if (issue.origin === 'string')
        return {
          message: `must be at most ${issue.maximum} characters`,
          constraint: { maxLength: Number(issue.maximum) },
        };
      if (issue.origin === 'array') return { message: `must have at most ${issue.maximum} item(s)` };
      return { message: `must be ${issue.inclusive ? '<=' : '<'} ${issue.maximum}` };
    case 'invalid_union': {
      const u = issue as { discriminator?: string; options?: unknown[] };
      if (u.discriminator) {
        const values = (u.options ?? []).map(String);
        return { message: `must be one of ${values.join(', ')}`, constraint: { enum: values } };
      }
      // A union of types (an integer as number or bigint, say) with nothing there at all.
      if (valueAt(value, issue.path) === undefined) return { message: 'is required' };
      return { message: issue.message };
    }
    case 'unrecognized_keys':
      return { message: `unknown field(s): ${issue.keys.join(', ')}` };
    case 'custom': {
      // Cross-field refinements may name the constraint they enforce in params.constraint.
      const constraint = (issue.params as { constraint?: FieldError['constraint'] } | undefined)?.constraint;
      return { message: issue.message, ...(constraint ? { constraint } : {}) };
    }
    default:
      return { message: issue.message };
  }
}

export function toFieldErrors(error: z.ZodError, value: unknown, prefix = ''): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const field = fieldPath(issue.path, prefix);
    if (seen.has(field)) continue; // one entry per invalid field
    seen.add(field);
    const { message, constraint } = describe(issue, value);
    out.push({ field, message, ...(constraint ? { constraint } : {}) });
  }
  return out;
}

/** Parses `value` with `schema`, throwing 400 INVALID_INPUT with field errors on failure. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: string, prefix = ''): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = toFieldErrors(result.error, value, prefix);
  const summary = errors.map((e) => `${e.field} ${e.message}`).join('; ');
  throw invalidInput(`Invalid ${where}: ${summary}`, errors);
}

/** Limits every JSON body obeys whatever its operation: no string longer, no nesting deeper. */
export const MAX_STRING_LENGTH = 16_384;
export const MAX_DEPTH = 32;

/** A UTF-16 surrogate without its pair (`"\\ud800"` in JSON): no Unicode text, and not storable. */
export const LONE_SURROGATE = /\p{Cs}/u;
/** Names that reach an object's prototype machinery when used as keys: refused wherever they occur. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Refuses strings longer than MAX_STRING_LENGTH, strings with NUL characters (PostgreSQL text
 * cannot hold them) or lone surrogates (stored, they would silently become U+FFFD), field names
 * that touch prototypes, and nesting deeper than MAX_DEPTH anywhere in a body: the operations' own
 * limits are tighter, this keeps such a value from ever reaching the database, a service's
 * `in`/property checks, or a deep one from the validators' recursion.
 */
export function checkJsonLimits(value: unknown): void {
  const errors: FieldError[] = [];
  const walk = (v: unknown, path: PropertyKey[]) => {
    if (errors.length >= 20) return;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) errors.push({ field: fieldPath(path), ...problem });
      return;
    }
    if (v === null || typeof v !== 'object') return;
    if (path.length >= MAX_DEPTH) {
      errors.push({ field: fieldPath(path), message: `is nested deeper than ${MAX_DEPTH} levels` });
      return;
    }
    if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...path, i]));
    else
      for (const [k, item] of Object.entries(v)) {
        if (k.length > 256 || k.includes('\u0000') || LONE_SURROGATE.test(k))
          errors.push({
            field: fieldPath(path),
            message: 'has a field name that is too long or contains NUL characters or lone surrogates',
          });
        else if (PROTOTYPE_KEYS.has(k))
          errors.push({ field: fieldPath([...path, k]), message: 'is a reserved name, not a field of any operation' });
        else walk(item, [...path, k]);
      }
  };
  walk(value, []);
  if (errors.length)
    throw invalidInput(`Invalid request body: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, errors);
}

function textProblem(v: string): Pick<FieldError, 'message' | 'constraint'> | undefined {
  if (v.length > MAX_STRING_LENGTH)
    return { message: `must be at most ${MAX_STRING_LENGTH} characters`, constraint: { maxLength: MAX_STRING_LENGTH } };
  if (v.includes('\u0000')) return { message: 'must not contain NUL characters' };
  if (LONE_SURROGATE.test(v))
    return { message: 'must be valid Unicode text: it contains a lone surrogate (\\uD800-\\uDFFF without its pair)' };
  return undefined;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  [Object.prototype, null].includes(Object.getPrototypeOf(v));

/**
 * Fields of `input` that the schema does not know: zod leaves them out of its output. Own keys
 * only: `constructor` is "in" every object by inheritance, never a field.
 */
export function unknownFields(input: unknown, output: unknown, path: PropertyKey[] = []): string[] {
  if (Array.isArray(input) && Array.isArray(output)) {
    return input.flatMap((item, i) => (i < output.length ? unknownFields(item, output[i], [...path, i]) : []));
  }
  if (!isPlainObject(input) || !isPlainObject(output)) return [];
  const out: string[] = [];
  for (const key of Object.keys(input)) {
    if (!Object.hasOwn(output, key)) out.push(fieldPath([...path, key]));
    else out.push(...unknownFields(input[key], output[key], [...path, key]));
  }
  return out;
}

/**
 * parseOrThrow for a JSON request body: limits first, then the schema. Fields the operation does
 * not define are left out by the schema (never stored, never echoed) or, in strict mode, refused,
 * so that a misspelt optional field is a clear 400 instead of a request doing something else.
 */
export function parseBodyOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  checkJsonLimits(value);
  const body = parseOrThrow(schema, value, 'request body');
  if (strictRequests())
    refuseUnknown(
      unknownFields(value, body),
      'Invalid request body: unknown field(s)',
      'is not a field of this operation',
    );
  return body;
}

function refuseUnknown(unknown: string[], summary: string, message: string): void {
  if (unknown.length)
    throw invalidInput(
      `${summary} ${unknown.join(', ')}`,
      unknown.map((field) => ({ field, message })),
    );
}

/** A query schema's parameters, and which of them take several values (the reference's arrays). */
interface QueryParams {
  known: Set<string>;
  lists: Set<string>;
}
const queryParamsOf = new WeakMap<z.ZodType, QueryParams>();

const acceptsArray = (s: Record<string, unknown>): boolean =>
  s.type === 'array' || (Array.isArray(s.anyOf) && s.anyOf.some((o) => acceptsArray(o as Record<string, unknown>)));

function paramsOf(schema: z.ZodType): QueryParams {
  let params = queryParamsOf.get(schema);
  if (!params) {
    // The schema's input side, as the served OpenAPI document declares it (read once per schema).
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
      properties?: Record<string, Record<string, unknown>>;
    };
    const props = Object.entries(json.properties ?? {});
    params = {
      known: new Set(props.map(([name]) => name)),
      lists: new Set(props.filter(([, s]) => acceptsArray(s)).map(([name]) => name)),
    };
    queryParamsOf.set(schema, params);
  }
  return params;
}

/**
 * A parameter given with no value (`?customerId=`) or, when it takes one value, given twice
 * (`?customerId=a&customerId=b`): refused, naming it. Read as absent, an empty filter would
 * answer the list unfiltered — another customer's accounts for a guide whose variable was unset —
 * and of two values neither is more the caller's intent than the other. A list parameter takes
 * its values repeated or comma-joined, but not none at all.
 */
function refuseEmptyOrRepeated(schema: z.ZodType, value: Record<string, string | string[]>): void {
  const { known, lists } = paramsOf(schema);
  const errors: FieldError[] = [];
  for (const [field, v] of Object.entries(value)) {
    if (!known.has(field)) continue; // refused as unknown after parsing
    const values = Array.isArray(v) ? v : [v];
    if (lists.has(field)) {
      if (values.every((s) => s.split(',').every((item) => item === '')))
        errors.push({ field, message: 'must not be empty: give at least one value', constraint: { minLength: 1 } });
    } else if (values.length > 1)
      errors.push({ field, message: `must be given once (it was given ${values.length} times)` });
    else if (values[0] === '')
      errors.push({
        field,
        message: 'must not be empty: leave the parameter out instead',
        constraint: { minLength: 1 },
      });
  }
  if (errors.length)
    throw invalidInput(`Invalid query parameter: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, errors);
}

/**
 * parseOrThrow for the query of an operation that takes query parameters: a parameter it does not
 * define is refused like an unknown body field. A filter misspelt (`?customerID=`) would otherwise
 * be dropped in silence and the list answered unfiltered. For the same reason an empty or repeated
 * parameter is refused (refuseEmptyOrRepeated). (Operations that take no query parameters leave
 * the URL's query alone.)
 */
export function parseQueryOrThrow<S extends z.ZodType>(
  schema: S,
  value: Record<string, string | string[]>,
): z.output<S> {
  refuseEmptyOrRepeated(schema, value);
  const query = parseOrThrow(schema, value, 'query parameter');
  refuseUnknown(
    unknownFields(value, query),
    'Invalid query parameter: unknown parameter(s)',
    'is not a query parameter of this operation',
  );
  return query;
}

/** Path and query values: no NUL characters (PostgreSQL text cannot hold them). */
export function checkTextValues(
  values: Record<string, string | string[]>,
  where: 'path parameter' | 'query parameter',
): void {
  const bad = Object.entries(values).filter(([, v]) => (Array.isArray(v) ? v : [v]).some((x) => x.includes('\u0000')));
  if (bad.length) {
    throw invalidInput(
      `Invalid ${where}: ${bad.map(([k]) => k).join(', ')} must not contain NUL characters`,
      bad.map(([field]) => ({ field, message: 'must not contain NUL characters' })),
    );
  }
}
