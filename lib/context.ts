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

/**
 * The service's public base URL (no trailing slash): CORRIDOR_PUBLIC_URL, or the local server on
 * $PORT. Links handed to customers (KYC, liveness, end-user terms), the WebAuthn relying party
 * and the start banner are all built on it.
 */
export function publicBaseUrl(): string {
  return (process.env.CORRIDOR_PUBLIC_URL || `http://localhost:${process.env.PORT || 3000}`).replace(/\/+$/, '');
}
