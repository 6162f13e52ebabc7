import { ttlCache, type TtlCache } from './cache';
import { cachesUsable, invalidationStamp, subscribe } from './invalidation';

// Caches of database state that every server process keeps (credentials, platform settings):
// entries are dropped in all processes when a change to what they hold commits
// (lib/core/invalidation.ts), and the cache serves nothing while this process could miss such a
// change (its listener is not connected). The TTL is a backstop only.

/** A TTL cache whose entries are dropped in every process when a topic names them. */
export interface SharedCache<V> {
  get(key: string): V | undefined;
  /** Take before reading the value to store; set() then refuses a value an invalidation overtook. */
  stamp(): number;
  set(key: string, value: V, stamp: number): void;
  readonly local: TtlCache<V>;
}

export function sharedCache<V>(
  name: string,
  ttlMs: number,
  /** Per topic: whether an entry (its cache key and value) is what the topic's key names. */
  topics: Record<string, (key: string, entryKey: string, value: V) => boolean>,
  maxEntries?: number,
): SharedCache<V> {
  const local = ttlCache<V>(name, ttlMs, maxEntries);
  // Each instance's cache subscribes to its instance's invalidations on first use (the handler
  // holds that instance's cache: notifications arrive outside any instance's context).
  const subscribed = new WeakSet<TtlCache<V>>();
  const here = () => {
    const cache = local.here();
    if (!subscribed.has(cache)) {
      subscribed.add(cache);
      for (const [topic, matches] of Object.entries(topics)) {
        subscribe(topic, name, (key) =>
          key === null ? cache.clear() : cache.deleteWhere((k, v) => matches(key, k, v)),
        );
      }
    }
    return cache;
  };
  return {
    local,
    get: (key) => {
      const cache = here();
      return cachesUsable() ? cache.get(key) : undefined;
    },
    stamp: () => (here(), invalidationStamp()),
    set(key, value, stamp) {
      const cache = here();
      if (stamp === invalidationStamp() && cachesUsable()) cache.set(key, value);
    },
  };
}

/**
 * Concurrent reads of one key share one read: when a cached entry's TTL runs out under load, the
 * requests that miss it at once (16 at 16 concurrent) make one read instead of one each (measured
 * in the payment flow: the platform settings' three statements and the credential lookup were
 * read about once per 12 flows). A read joins another only if no invalidation came between their
 * starts (the same stamp), so a request that began after a change never gets a value read before
 * it; a read that fails fails alone (the others read for themselves). Outside transactions only:
 * a read through one request's transaction is not another request's to share.
 */
export function singleFlight<V>(): (key: string, read: () => Promise<V>) => Promise<V> {
  const running = new Map<string, { stamp: number; value: Promise<V> }>();
  return async (key, read) => {
    const stamp = invalidationStamp();
    const other = running.get(key);
    if (other && other.stamp === stamp) {
      try {
        return await other.value;
      } catch {
        return read();
      }
    }
    const value = read();
    const entry = { stamp, value };
    running.set(key, entry);
    try {
      return await value;
    } finally {
      if (running.get(key) === entry) running.delete(key);
    }
  };
}
