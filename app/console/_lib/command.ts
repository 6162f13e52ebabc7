import 'server-only';
import { log } from '@/lib/core/log';
import type { z } from 'zod';
import { runCommand, runCommandKeyed, type Command } from '@/lib/core/command';
import { DomainError } from '@/lib/core/errors';
import { parseJson, stringifyJson } from '@/lib/core/json';
import { errorAnswer } from '@/lib/http/endpoint';
import type { ActionResult } from './session';
import { currentStaff } from './auth';

// How a console server action runs its command: as the signed-in staff member (none: UNAUTHORIZED),
// through the command runner (role, input, idempotency), with every refusal returned as a result
// the page shows — never thrown to it. `view` picks what the page gets from the command's result.
const signedOut = (): ActionResult<never> => ({
  ok: false,
  code: 'UNAUTHORIZED',
  error: 'Your session has ended; sign in again',
});

function refusal(err: unknown): ActionResult<never> {
  if (err instanceof DomainError) {
    const fields = (err.details?.errors as { field: string; message: string }[] | undefined)?.map((e) => ({
      field: e.field,
      message: e.message,
    }));
    return { ok: false, code: err.code, error: err.message, ...(fields ? { fields } : {}) };
  }
  log().error({ err }, 'console action failed with an unexpected error');
  return { ok: false, code: 'INTERNAL_ERROR', error: 'Internal error; nothing was changed' };
}

export async function command<R, V>(
  cmd: Command<z.ZodType, R>,
  input: unknown,
  view: (result: R) => V,
): Promise<ActionResult<V>> {
  const actor = await currentStaff();
  if (!actor) return signedOut();
  try {
    return { ok: true, value: view(await runCommand(cmd, actor, input)) };
  } catch (err) {
    return refusal(err);
  }
}

/**
 * As `command`, under the click's idempotency key: a repeat of the request gets the first answer
 * (stored with the effect, lib/core/keyed.ts) and does nothing again.
 */
export async function keyedCommand<R, V>(
  cmd: Command<z.ZodType, R>,
  input: unknown,
  key: string | undefined,
  view: (result: R) => V,
): Promise<ActionResult<V>> {
  const actor = await currentStaff();
  if (!actor) return signedOut();
  const out = await runCommandKeyed(
    cmd,
    actor,
    input,
    { key: key ?? null },
    {
      answer: (result) => ({ status: 200, text: stringifyJson(view(result) ?? null) }),
      error: (err) => {
        const r = refusal(err);
        return r.ok
          ? { status: 500, text: '' }
          : { status: err instanceof DomainError ? errorAnswer(err).status : 500, text: stringifyJson(r) };
      },
    },
  );
  if (out.status < 400) return { ok: true, value: parseJson(out.text) as V };
  return parseJson(out.text) as ActionResult<V>;
}
