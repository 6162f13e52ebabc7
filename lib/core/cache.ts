// A small time-bounded cache for hot read paths (credentials, platform settings). Entries live
// a few seconds: writes in this process invalidate at once; other processes sharing the database
// see a change within the TTL. Kept on globalThis because Next.js bundles each route separately,
// and a per-bundle cache would miss more and invalidate less.
export interface TtlCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  deleteWhere(match: (key: string, value: V) => boolean): void;
  clear(): void;
  /** Entries held, expired ones not yet dropped included. */
  readonly size: number;
}

const registry = globalThis as unknown as { __corridorCaches?: Map<string, TtlCache<unknown>> };

export function ttlCache<V>(name: string, ttlMs: number, maxEntries = 10_000): TtlCache<V> {
  const caches = (registry.__corridorCaches ??= new Map());
  const existing = caches.get(name);
  if (existing) return existing as TtlCache<V>;
  const entries = new Map<string, { value: V; expires: number }>();
  const cache: TtlCache<V> = {
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
  caches.set(name, cache as TtlCache<unknown>);
  return cache;
}
