import type { z } from 'zod';
import { runAs, type Actor, type Permission, type StaffRole } from './context';
import { DomainError, invalidInput } from './errors';
import { canonicalJson } from './json';
import { requestHash, runKeyed, validateKey, type Answer, type KeyedAnswer } from './keyed';
import { parseBodyOrThrow } from './validation';
import { runCommandSpan } from './tracing';

// The application layer: every operation is a command — its input (a zod schema), who may run it,
// its idempotency rule and the domain call — and every surface (REST route handlers, MCP tools,
// console server actions, wallet routes) runs it through this one runner, so each refuses the same
// input, the same caller and the same repeated key with the same error. Surfaces only read their
// transport (HTTP body, tool arguments, form values) and present the result; none validates by
// hand and none calls another surface. Commands live in lib/<domain>/commands.ts.

/** Who may run a command; an actor of a kind not named here is refused (403 FORBIDDEN). */
export interface ActorRule {
  /** API tokens holding this permission. */
  platform?: Permission;
  /** Agents; their policy, grants and limits are the domain call's to check (lib/agents). */
  agent?: true;
  /** Console staff with at least this role. */
  staff?: StaffRole;
  /** A signed-in wallet customer; the command keeps to the customer's own objects. */
  customer?: true;
  /** The service itself (the worker, tests' set-up). */
  system?: true;
}

/**
 * `required`: a call without a key is refused (the reference requires Idempotency-Key, or the
 * command moves money or creates something on a surface that always sends one); `optional`: a
 * key makes it exactly-once; `none`: reads and changes that are idempotent by themselves.
 */
export type Idempotency = 'required' | 'optional' | 'none';

export interface Command<S extends z.ZodType = z.ZodType, R = unknown> {
  name: string;
  input: S;
  actors: ActorRule;
  idempotency: Idempotency;
  /** The domain call, run as `actor` (inside runAs) with the parsed input. */
  run(actor: Actor, input: z.output<S>): Promise<R>;
}

export function defineCommand<S extends z.ZodType, R>(c: Command<S, R>): Command<S, R> {
  return c;
}

export const STAFF_ROLES: StaffRole[] = ['viewer', 'operator', 'admin'];

export const hasRole = (actual: StaffRole, needed: StaffRole) =>
  STAFF_ROLES.indexOf(actual) >= STAFF_ROLES.indexOf(needed);

/** The refusal of an API token lacking `permission` (the API's answer since its first version). */
export function missingPermission(permission: Permission, held: Permission[]): DomainError {
  return new DomainError('FORBIDDEN', `This API token lacks the ${permission} permission required for this operation`, {
    requiredPermission: permission,
    tokenPermissions: held,
  });
}

export function missingRole(needed: StaffRole, role: StaffRole): DomainError {
  return new DomainError('FORBIDDEN', `This needs the ${needed} role; you are signed in as ${role}`, {
    requiredRole: needed,
    role,
  });
}

/** Refuses `actor` unless the rule admits it. */
export function checkActor(rule: ActorRule, actor: Actor, name = 'this operation'): void {
  switch (actor.kind) {
    case 'platform':
      if (!rule.platform) break;
      if (!actor.permissions.includes(rule.platform)) throw missingPermission(rule.platform, actor.permissions);
      return;
    case 'staff':
      if (!rule.staff) break;
      if (!hasRole(actor.role, rule.staff)) throw missingRole(rule.staff, actor.role);
      return;
    case 'agent':
    case 'customer':
    case 'system':
      if (rule[actor.kind]) return;
  }
  throw new DomainError('FORBIDDEN', `${name} is not available to this caller`, {
    reason: 'ACTOR_NOT_ALLOWED',
    actor: actor.kind,
  });
}

/**
 * Where an actor's idempotency keys live: a platform's API tokens share the platform's keys; every
 * other actor has its own space, so the same key from another caller is an unrelated request.
 */
export function scopedKey(actor: Actor, key: string): string {
  switch (actor.kind) {
    case 'platform':
      return key;
    case 'agent':
      return `agent:${actor.agentId}:${key}`;
    case 'staff':
      return `staff:${actor.staffUserId}:${key}`;
    case 'customer':
      return `customer:${actor.customerId}:${key}`;
    case 'system':
      return `system:${key}`;
  }
}

/** An idempotency key as a surface received it, and what the request it came with is. */
export interface KeyedCall {
  /** The key as sent (validated here), or null when the call carries none. */
  key: string | null;
  /** Put before the key in the actor's space: a surface's own keys stay apart (MCP's, per tool). */
  space?: string;
  /** The request's fingerprint: a repeat of the key with another one is refused. Default: the input's. */
  hash?: string;
}

/** How a surface presents a result and a refusal: what a repeat of the key replays, byte for byte. */
export interface Presenter<R> {
  answer: (result: R) => Answer;
  error: (err: unknown) => Answer;
}

export const keyRequired = () =>
  invalidInput('This operation requires an Idempotency-Key header', [
    { field: 'Idempotency-Key', message: 'is required' },
  ]);

/** The checks every run makes first: the caller, then the input. */
function admit<S extends z.ZodType, R>(cmd: Command<S, R>, actor: Actor, raw: unknown): z.output<S> {
  checkActor(cmd.actors, actor, cmd.name);
  return parseBodyOrThrow(cmd.input, raw);
}

/**
 * Runs `cmd` as `actor` on input as received (`raw`, unparsed), without an idempotency key: refused
 * when the command requires one. Throws the domain error of a refusal.
 */
export function runCommand<S extends z.ZodType, R>(cmd: Command<S, R>, actor: Actor, raw: unknown): Promise<R> {
  return runAs(actor, () =>
    runCommandSpan(cmd.name, spanAttributes(actor), async () => {
      const input = admit(cmd, actor, raw);
      if (cmd.idempotency === 'required') throw keyRequired();
      return cmd.run(actor, input);
    }),
  );
}

/** What a command's span records of who ran it: the actor's kind and platform, never a name. */
const spanAttributes = (actor: Actor): Record<string, string> => ({
  'corridor.actor': actor.kind,
  'corridor.platform_id': actor.platformId,
});

/**
 * Runs `cmd` as `actor` with the surface's idempotency key: the key is claimed (or its stored
 * answer replayed), the command's effect records `present.answer(result)` in its own transaction
 * (lib/core/idempotency.ts `effect`), and a refusal is `present.error(err)`. Without a key (or for
 * a command that takes none) it runs once and answers the same way, source `fresh`.
 */
export function runCommandKeyed<S extends z.ZodType, R>(
  cmd: Command<S, R>,
  actor: Actor,
  raw: unknown,
  call: KeyedCall,
  present: Presenter<R>,
): Promise<KeyedAnswer> {
  const fresh = async (run: () => Promise<R>): Promise<KeyedAnswer> => {
    try {
      return { ...present.answer(await run()), source: 'fresh' };
    } catch (err) {
      return { ...present.error(err), source: 'fresh' };
    }
  };
  return runAs(actor, () => runCommandSpan(cmd.name, spanAttributes(actor), () => keyed()));
  async function keyed(): Promise<KeyedAnswer> {
    let input: z.output<S>;
    try {
      input = admit(cmd, actor, raw);
      if (call.key === null && cmd.idempotency === 'required') throw keyRequired();
      if (call.key !== null && cmd.idempotency !== 'none') validateKey(call.key);
    } catch (err) {
      return { ...present.error(err), source: 'fresh' };
    }
    if (call.key === null || cmd.idempotency === 'none') return fresh(() => cmd.run(actor, input));
    const hash = call.hash ?? requestHash('COMMAND', cmd.name, canonicalJson(raw ?? null));
    try {
      return await runKeyed(
        { label: cmd.name, platformId: actor.platformId, key: scopedKey(actor, (call.space ?? '') + call.key), hash },
        () => cmd.run(actor, input),
        (result) => present.answer(result as R),
        present.error,
      );
    } catch (err) {
      // The key's own refusals (another request under it, still in progress) are answers too.
      return { ...present.error(err), source: 'fresh' };
    }
  }
}

/**
 * For the API wrapper, which already runs as `actor` (runAs) and holds the request's key claim
 * (lib/core/keyed.ts runKeyed): the same checks and domain call, inside that context.
 */
export function runCommandHere<S extends z.ZodType, R>(cmd: Command<S, R>, actor: Actor, raw: unknown): Promise<R> {
  return cmd.run(actor, admit(cmd, actor, raw));
}
