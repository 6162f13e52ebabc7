import { currentCorridor } from './context';

// A small time-bounded cache for hot read paths (credentials, platform settings). Entries live
// a few seconds: writes in this process invalidate at once; other processes sharing the database
// see a change within the TTL. Each Corridor instance holds its own entries (two instances in one
// process never see each other's); the module-level handle finds the current instance's.
export interface TtlCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  deleteWhere(match: (key: string, value: V) => boolean): void;
  clear(): void;
  /** Entries held, expired ones not yet dropped included. */
  readonly size: number;
}

/** A cache handle declared at module level: each call works on the current instance's entries. */
export interface InstanceTtlCache<V> extends TtlCache<V> {
  /** The current instance's cache itself (to hold on to it outside its context). */
  here(): TtlCache<V>;
}

declare module './context' {
  interface CorridorParts {
    /** This instance's caches, by name. */
    caches: Map<string, TtlCache<unknown>>;
  }
}

export function ttlCache<V>(name: string, ttlMs: number, maxEntries = 10_000): InstanceTtlCache<V> {
  const here = (): TtlCache<V> => {
    const caches = currentCorridor().caches;
    let cache = caches.get(name);
    if (!cache) caches.set(name, (cache = newCache<unknown>(ttlMs, maxEntries)));
    return cache as TtlCache<V>;
  };
  return {
    here,
    get: (key) => here().get(key),
    set: (key, value) => here().set(key, value),
    delete: (key) => here().delete(key),
    deleteWhere: (match) => here().deleteWhere(match),
    clear: () => here().clear(),
    get size() {
      return here().size;
    },
  };
}

function newCache<V>(ttlMs: number, maxEntries: number): TtlCache<V> {
  const entries = new Map<string, { value: V; expires: number }>();
  return {
    get(key) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      if (hit.expires < Date.now()) {
        entries.delete(key);
        return undefined;
      }
      return hit.value;
    },
    set(key, value) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { value, expires: Date.now() + ttlMs });
    },
    delete(key) {
      entries.delete(key);
    },
    deleteWhere(match) {
      for (const [k, v] of entries) if (match(k, v.value)) entries.delete(k);
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
