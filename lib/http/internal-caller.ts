import { AsyncLocalStorage } from 'node:async_hooks';
import { currentCorridor, type Actor } from '../core/context';

// Callers inside this server that are not API clients (the wallet pages' server side) run an API
// route handler as an actor they name instead of presenting a credential: no API token stands
// between them and the API, so nothing an API call deletes or changes can lock them out. Only
// code in this process can set it; a request from outside never carries it.
export interface Pending {
  actor: Actor;
  taken: boolean;
}

// Held by the instance (Next.js bundles each route separately: module state would not be shared).
declare module '../core/context' {
  interface CorridorParts {
    internalCalls: AsyncLocalStorage<Pending>;
  }
}

export const createInternalCalls = () => new AsyncLocalStorage<Pending>();
const storage = () => currentCorridor().internalCalls;

/** Runs `fn` (one route handler call) so that its authentication yields `actor`. */
export function callAs<T>(actor: Actor, fn: () => Promise<T>): Promise<T> {
  return storage().run({ actor, taken: false }, fn);
}

/**
 * The actor of the route handler call in progress, once: whatever that handler starts later in
 * the same async context (a cache fill, a listener) cannot authenticate as it again.
 */
export function takeInternalCaller(): Actor | undefined {
  const pending = storage().getStore();
  if (!pending || pending.taken) return undefined;
  pending.taken = true;
  return pending.actor;
}
