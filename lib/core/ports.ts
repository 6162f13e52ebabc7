// Ports: where code needs something it must not depend on — the outside world (payment rails,
// KYC decisions, message delivery, OIDC keys, webhook transport...) or, in a few places, a domain
// further out (a customer's email change that the wallet's credentials must follow). The port is
// declared where it is used, with the interface it needs; lib/wiring.ts plugs in one
// implementation at start, explicitly. Nothing plugs itself in on import.
export interface Port<T> {
  readonly name: string;
  /** The implementation plugged in; throws when wiring forgot it (a bug, not a runtime state). */
  get(): T;
  set(impl: T): void;
}

import { isSandbox } from './mode';

// On globalThis: Next.js bundles routes separately, and each bundle must see what wiring set.
const slots = ((globalThis as unknown as { __corridorPorts?: Map<string, unknown> }).__corridorPorts ??= new Map());

export function port<T>(name: string): Port<T> {
  return {
    name,
    get() {
      if (!slots.has(name)) throw new Error(`port ${name} is not wired (lib/wiring.ts plugs every port in at start)`);
      return slots.get(name) as T;
    },
    set(impl) {
      slots.set(name, impl);
    },
  };
}

/**
 * One implementation that is the sandbox simulation in sandbox mode and the production adapter
 * otherwise, decided at each call (the mode is a setting a test may change at run time).
 */
export function byMode<T extends object>(sandbox: T, production: T): T {
  return new Proxy({} as T, {
    get(_target, key) {
      const impl = isSandbox() ? sandbox : production;
      const value = (impl as Record<PropertyKey, unknown>)[key];
      return typeof value === 'function' ? value.bind(impl) : value;
    },
  });
}
