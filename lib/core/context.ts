import { AsyncLocalStorage } from 'node:async_hooks';

// Who is acting in the current request or job, set once by whoever starts the work (the API
// wrapper, the worker) so that deep code — the clock reading the platform's sandbox offset, the
// transaction helper binding an Idempotency-Key — needs nothing threaded through it.
export type Permission = 'VIEW' | 'TRANSACT' | 'MANAGE';

/**
 * A platform's sandbox clock, carried by every actor of the platform (lib/core/clock.ts reads it):
 * the wall clock plus `clockOffsetMs`, or, while frozen, `clockFrozenAt` plus the offset.
 */
export interface PlatformClock {
  /** Milliseconds the platform's time is ahead of the wall clock (POST /sandbox/clock/advance). */
  clockOffsetMs: bigint;
  /** When set, the wall instant the clock stopped at: the platform's time moves only when advanced. */
  clockFrozenAt: Date | null;
}

export type Actor = (
  | { kind: 'platform'; platformId: string; tokenId: string; permissions: Permission[] }
  | { kind: 'agent'; platformId: string; agentId: string; customerId: string }
  | { kind: 'system'; platformId: string }
  // A person signed in to the admin console: what they do is recorded in the staff audit trail.
  // staffSessionId: the console session acting (absent for a staff actor made outside one).
  | { kind: 'staff'; platformId: string; staffUserId: string; email: string; role: StaffRole; staffSessionId?: string }
  // A wallet holder signed in to the wallet pages (a wallet session of the customer's account):
  // acts on that customer's own objects only.
  | { kind: 'customer'; platformId: string; customerId: string; accountId: string; authSessionId: string }
) &
  PlatformClock;

/** Console roles, each including the ones before it: viewer reads, operator acts, admin configures. */
export type StaffRole = 'viewer' | 'operator' | 'admin';

/**
 * The Idempotency-Key this operation holds (lib/core/idempotency.ts): its effect's transaction
 * records the operation's answer under the key, guarded by `owner`, so that the effect and the
 * record of it commit together or not at all.
 */
export interface Claim {
  platformId: string;
  key: string;
  /** Unique per request: only this request may complete or release the claim. */
  owner: string;
  /** The operation's answer for a result of its effect: what a repeat of the key replays. */
  answer: (result: unknown) => { status: number; text: string };
  /** Set once the effect committed with its answer. */
  bound?: { status: number; text: string };
}

/**
 * What one Corridor instance holds (lib/boot.ts createCorridor builds it): each part is declared
 * by the module that owns it (`declare module './context'`), so that lib/core needs nothing
 * from the layers above, and the type checker refuses an instance missing a part.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CorridorParts {}

export interface CorridorConfig {
  /** Sandbox (magic values, simulated providers) or production: fixed for the instance's life. */
  mode: 'sandbox' | 'production';
  /** A PostgreSQL wire endpoint: a server, or the embedded PGlite served on loopback. */
  databaseUrl: string;
  /** The endpoint is the embedded database (one session, one connection). */
  embedded: boolean;
}

export type Corridor = CorridorParts & { readonly config: CorridorConfig };

interface Context {
  actor?: Actor;
  claim?: Claim;
  corridor: Corridor;
}

const storage = new AsyncLocalStorage<Context>();

// The app process's one handle to its instance, set by its composition root (instrumentation.ts;
// tests/setup.ts in a test process) and read when work starts outside any context (a request
// reaching the edge, a script). It is on globalThis because Next.js bundles routes separately and
// every bundle must reach the same instance. Everything else an instance holds hangs off it.
const app = globalThis as unknown as { __corridorApp?: Corridor };

export function setAppCorridor(corridor: Corridor | undefined): void {
  app.__corridorApp = corridor;
}

/** The instance the current work runs under: its context's, else the app's. */
export function currentCorridor(): Corridor {
  const corridor = storage.getStore()?.corridor ?? app.__corridorApp;
  if (!corridor) throw new Error('no Corridor instance: build one with createCorridor (lib/boot.ts) first');
  return corridor;
}

/** Runs `fn` as `actor` under `corridor` (by default the instance of the current work). */
export function runAs<T>(actor: Actor, fn: () => Promise<T>, corridor = currentCorridor()): Promise<T> {
  // Already acting as this actor (a command's domain call that sets its actor itself): the work
  // stays in the current context, with the Idempotency-Key claim it holds.
  const store = storage.getStore();
  if (store?.actor === actor && store.corridor === corridor) return fn();
  return storage.run({ actor, corridor }, fn);
}

/** Runs `fn` under `corridor`, acting as nobody yet (a script, a worker pass, a test). */
export function within<T>(corridor: Corridor, fn: () => T): T {
  return storage.run({ corridor }, fn);
}

export function currentActor(): Actor | undefined {
  return storage.getStore()?.actor;
}

/** Runs `fn` holding `claim` (inside runAs). */
export function withClaim<T>(claim: Claim, fn: () => Promise<T>): Promise<T> {
  const current = storage.getStore();
  if (!current) throw new Error('withClaim outside of an actor context');
  return storage.run({ ...current, claim }, fn);
}

/** The claim of the operation running now, if it holds one. */
export function currentClaim(): Claim | undefined {
  return storage.getStore()?.claim;
}
