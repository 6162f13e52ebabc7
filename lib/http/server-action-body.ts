// The bodies of server-action requests, checked before Next.js decodes them. Next.js hands a
// server action's body to React's reply decoder and answers any failure there with a 500 (a
// React error digest): a body that is not JSON, arguments that are not a list, a reference to a
// part the body does not hold (the decoder waits for it, then fails with "Connection closed"),
// a multipart body cut short. Here the body must have the shape the console's own pages send —
// a JSON list of plain values (strings, numbers, booleans, null, lists, objects, undefined,
// dates, bigints) and, for forms, FormData — and anything else is refused as malformed (400).
// The decoder's other references (promises, maps, sets, streams, blobs, typed arrays, server
// and temporary references) are never sent by the console, so they are refused too.

/** Why the body is malformed, or null when it has the console's shape. */
export type BodyProblem = string | null;

const MAX_DEPTH = 32;

// The '$'-prefixed strings the decoder turns into a value without looking anything up:
// "$$..." (an escaped '$'), "$undefined", Infinity, NaN, -0, -Infinity, a date, a bigint of up
// to 300 digits (the decoder's own limit) and "$K<hex>" (a FormData made of the body's
// `_<n>_`-prefixed fields; missing fields make an empty one, never an error).
const PLAIN_REFERENCE = /^\$(?:\$|u|I|N|-0$|-Infinity$|D|n-?\d{0,300}$|K[0-9a-f]{1,8}$)/;

/** The first string in `value` the decoder would resolve by reference (keys are taken as they are). */
function badValue(value: unknown, depth = 0): BodyProblem {
  if (depth > MAX_DEPTH) return `values nest deeper than ${MAX_DEPTH} levels`;
  if (typeof value === 'string')
    return value.startsWith('$') && !PLAIN_REFERENCE.test(value)
      ? `the value ${JSON.stringify(value.slice(0, 24))} is not accepted`
      : null;
  if (value === null || typeof value !== 'object') return null;
  for (const item of Object.values(value)) {
    const problem = badValue(item, depth + 1);
    if (problem) return problem;
  }
  return null;
}

/** A JSON list of plain values (the arguments of a call, or the bound arguments of a form). */
export function badArgumentList(text: string | undefined): BodyProblem {
  if (text === undefined) return 'the arguments are missing';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'the arguments are not JSON';
  }
  if (!Array.isArray(parsed)) return 'the arguments are not a list';
  return badValue(parsed);
}

/**
 * A form posted without JavaScript names its action in its fields: `$ACTION_ID_<id>` (no
 * arguments: only the form) or `$ACTION_REF_<n>` with `$ACTION_<n>:0` = `{"id", "bound"}` and
 * the bound arguments, if any, in the field `"$@<hex>"` names.
 */
export function badFormAction(form: FormData): BodyProblem {
  for (const key of form.keys()) {
    const ref = /^\$ACTION_REF_(.*)$/.exec(key);
    if (!ref) continue;
    const prefix = `$ACTION_${ref[1]}:`;
    const meta = form.get(`${prefix}0`);
    if (typeof meta !== 'string') return `the form names no action (${prefix}0)`;
    let parsed: { id?: unknown; bound?: unknown };
    try {
      parsed = JSON.parse(meta) ?? {};
    } catch {
      return `${prefix}0 is not JSON`;
    }
    if (typeof parsed !== 'object' || typeof parsed.id !== 'string') return `${prefix}0 names no action`;
    if (parsed.bound === null || parsed.bound === undefined) continue;
    const bound = typeof parsed.bound === 'string' ? /^\$@([0-9a-f]{1,8})$/.exec(parsed.bound) : null;
    if (!bound) return `${prefix}0 has malformed bound arguments`;
    const args = form.get(`${prefix}${parseInt(bound[1], 16)}`);
    const problem = badArgumentList(typeof args === 'string' ? args : undefined);
    if (problem) return `bound arguments: ${problem}`;
  }
  return null;
}

/** A call from a page's script: its arguments as one JSON text, or as field "0" of a multipart form. */
export function badCallArguments(form: FormData | null, text: string | null): BodyProblem {
  if (form) {
    const root = form.get('0');
    return badArgumentList(typeof root === 'string' ? root : undefined);
  }
  return badArgumentList(text ?? undefined);
}
