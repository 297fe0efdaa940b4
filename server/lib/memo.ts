/**
 * Memoising for packaged static data (the lookup lists, the IP and ASN tables, fonts, compiled
 * patterns, parsed user agents): what the domain computes once from files or pure inputs goes through
 * these, so server/domain keeps no mutable module state of its own (tests/unit/module_state_test.ts).
 * What they hold is a pure function of what the process ships with (or of the key), the same for
 * every app in the process; per-app state belongs in deps.services instead.
 */

/** `make()`'s value, made on the first call and returned by every later one (a failure included). */
export function once<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}

/**
 * An asynchronous load made once: a promise until it has resolved, then the value itself, so a hot
 * path that awaits it pays no promise after the first load.
 */
export function loadOnce<T>(load: () => Promise<T>): () => T | Promise<T> {
  let loaded = false;
  let value: T;
  const loading = once(() =>
    load().then((v) => {
      value = v;
      loaded = true;
      return v;
    })
  );
  return () => (loaded ? value : loading());
}

/** A cache of at most `max` entries; when full, the oldest entry goes first. */
export type BoundedCache<K, V> = {
  get(key: K): V | undefined;
  set(key: K, value: V): V;
  readonly size: number;
};

export function boundedCache<K, V>(max: number): BoundedCache<K, V> {
  const entries = new Map<K, V>();
  return {
    get: (key) => entries.get(key),
    set(key, value) {
      if (!entries.has(key) && entries.size >= max) entries.delete(entries.keys().next().value!);
      entries.set(key, value);
      return value;
    },
    get size() {
      return entries.size;
    },
  };
}
