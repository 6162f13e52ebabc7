import { AsyncLocalStorage } from 'node:async_hooks';

// Who is acting in the current request or job. Set once by the route wrapper (or the worker)
// so deep code such as the clock can read the platform's sandbox offset without threading it.
export type Permission = 'VIEW' | 'TRANSACT' | 'MANAGE';

export type Principal =
  | { kind: 'platform'; platformId: string; tokenId: string; permissions: Permission[]; clockOffsetMs: bigint }
  | { kind: 'agent'; platformId: string; agentId: string; customerId: string; clockOffsetMs: bigint }
  | { kind: 'system'; platformId: string; clockOffsetMs: bigint };

const storage = new AsyncLocalStorage<Principal>();

export function runAs<T>(principal: Principal, fn: () => Promise<T>): Promise<T> {
  return storage.run(principal, fn);
}

export function currentPrincipal(): Principal | undefined {
  return storage.getStore();
}
