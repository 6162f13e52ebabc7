import type { z } from 'zod';
import { invalidInput, type FieldError } from './errors';

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

function describe(issue: z.core.$ZodIssue): Pick<FieldError, 'message' | 'constraint'> {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? { message: 'is required' }
        : { message: `must be ${issue.expected === 'bigint' ? 'an integer' : issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`}` };
    case 'invalid_value':
      return { message: `must be one of ${issue.values.map(String).join(', ')}`, constraint: { enum: issue.values.map(String) } };
    case 'invalid_format': {
      const fmt = issue.format === 'regex' ? undefined : issue.format;
      const message = fmt ? `must be a valid ${fmt === 'date' ? 'date (YYYY-MM-DD)' : fmt === 'datetime' ? 'ISO 8601 date-time' : fmt}` : issue.message;
      return { message, constraint: fmt ? { format: fmt } : { pattern: (issue as { pattern?: string }).pattern?.replace(/^\/|\/$/g, '') } };
    }
    case 'too_small':
      if (issue.origin === 'string') return { message: `must be at least ${issue.minimum} characters`, constraint: { minLength: Number(issue.minimum) } };
      if (issue.origin === 'array') return { message: `must have at least ${issue.minimum} item(s)` };
      return { message: `must be ${issue.inclusive ? '>=' : '>'} ${issue.minimum}` };
    case 'too_big':
      if (issue.origin === 'string') return { message: `must be at most ${issue.maximum} characters`, constraint: { maxLength: Number(issue.maximum) } };
      if (issue.origin === 'array') return { message: `must have at most ${issue.maximum} item(s)` };
      return { message: `must be ${issue.inclusive ? '<=' : '<'} ${issue.maximum}` };
    case 'invalid_union': {
      const u = issue as { discriminator?: string; options?: unknown[] };
      if (u.discriminator) {
        const values = (u.options ?? []).map(String);
        return { message: `must be one of ${values.join(', ')}`, constraint: { enum: values } };
      }
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

export function toFieldErrors(error: z.ZodError, prefix = ''): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const field = fieldPath(issue.path, prefix);
    if (seen.has(field)) continue; // one entry per invalid field
    seen.add(field);
    const { message, constraint } = describe(issue);
    out.push({ field, message, ...(constraint ? { constraint } : {}) });
  }
  return out;
}

/** Parses `value` with `schema`, throwing 400 INVALID_INPUT with field errors on failure. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: string, prefix = ''): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = toFieldErrors(result.error, prefix);
  const summary = errors.map((e) => `${e.field} ${e.message}`).join('; ');
  throw invalidInput(`Invalid ${where}: ${summary}`, errors);
}
