import { currentCorridor } from './context';

// Ports: where code needs something it must not depend on — the outside world (payment rails,
// KYC decisions, message delivery, OIDC keys, webhook transport...) or, in a few places, a domain
// further out (a customer's email change that the wallet's credentials must follow). The port is
// declared where it is used, with the interface it needs; createCorridor (lib/boot.ts, with the
// choices in lib/wiring.ts) plugs one implementation into each instance when it builds it —
// sandbox or production, decided then, once. Nothing plugs itself in on import.
export interface Port<T> {
  readonly name: string;
  /** The current instance's implementation; throws when its wiring forgot it (a bug, not a runtime state). */
  get(): T;
  /** Replaces the current instance's implementation (a test standing in for a provider). */
  set(impl: T): void;
}

declare module './context' {
  interface CorridorParts {
    /** Each port's implementation in this instance, by port name. */
    ports: Map<string, unknown>;
  }
}

export function port<T>(name: string): Port<T> {
  return {
    name,
    get() {
      const slots = currentCorridor().ports;
      if (!slots.has(name)) throw new Error(`port ${name} is not wired (lib/wiring.ts plugs every port in)`);
      return slots.get(name) as T;
    },
    set(impl) {
      currentCorridor().ports.set(name, impl);
    },
  };
}

/** A port and the implementation an instance plugs into it (createCorridor's `ports`). */
export type Plug = readonly [name: string, impl: unknown];

export function plug<T>(p: Port<T>, impl: T): Plug {
  return [p.name, impl];
}

/**
 * What an outside-world adapter says about itself, for the start-up summary (lib/wiring.ts
 * adapterSummary): which party it serves, which adapter is plugged, whether it reaches a real
 * provider, and what the operator should know (where it points, what to set to connect one).
 */
export interface AdapterStatus {
  party: string;
  adapter: string;
  connected: boolean;
  detail?: string;
}

/** An implementation that can describe itself (every outside-world adapter should). */
export interface Describable {
  describe(): AdapterStatus;
}

export const isDescribable = (impl: unknown): impl is Describable =>
  typeof impl === 'object' && impl !== null && typeof (impl as Describable).describe === 'function';
