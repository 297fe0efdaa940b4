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

/**
 * A map of at most `max` entries: when full, the oldest goes first. Setting a key it holds keeps the
 * key's place; `touch` (or `set(k, v, true)`) makes it the newest.
 *
 * Why not a Map alone, dropping `keys().next()`: V8's Map leaves a hole for each deleted entry until
 * it rehashes, and that iterator walks every hole before the first live entry. A full map that drops
 * its oldest at each insert piles holes up at its front: at 200,000 entries an eviction cost 83 µs
 * (the router's respondent references: its throughput fell threefold past 200,000 sessions). Here the
 * order is a queue of keys beside the map, each stamped: an eviction takes the queue's head, skipping
 * keys deleted or touched since (stale stamps), O(1) amortized; the queue is compacted when stale
 * stamps outnumber the entries.
 */
export class BoundedMap<K, V> {
  readonly #map = new Map<K, { value: V; stamp: number }>();
  #keys: K[] = [];
  #stamps: number[] = [];
  #head = 0;
  #stamp = 0;

  constructor(readonly max: number) {
    if (!(max >= 1)) throw new Error("a bounded map holds at least one entry");
  }

  get size(): number {
    return this.#map.size;
  }

  /** Keys queued, live and stale (at most twice the entries, and a few more). */
  get queued(): number {
    return this.#keys.length - this.#head;
  }

  get(key: K): V | undefined {
    return this.#map.get(key)?.value;
  }

  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** Sets the value (`touch`: and makes the key the newest); the oldest goes when full. */
  set(key: K, value: V, touch = false): V {
    const known = this.#map.get(key);
    if (known) {
      known.value = value;
      if (touch) this.#queue(key, known);
      return value;
    }
    while (this.#map.size >= this.max) this.#evict();
    const slot = { value, stamp: 0 };
    this.#map.set(key, slot);
    this.#queue(key, slot);
    return value;
  }

  /** Makes a key it holds the newest; whether it held it. */
  touch(key: K): boolean {
    const known = this.#map.get(key);
    if (known) this.#queue(key, known);
    return known !== undefined;
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  clear() {
    this.#map.clear();
    this.#keys = [];
    this.#stamps = [];
    this.#head = 0;
  }

  #queue(key: K, slot: { stamp: number }) {
    // the newest already (a statement run again and again): nothing to queue
    if (slot.stamp && slot.stamp === this.#stamps[this.#stamps.length - 1]) return;
    slot.stamp = ++this.#stamp;
    this.#keys.push(key);
    this.#stamps.push(slot.stamp);
    if (this.queued > 2 * this.#map.size + 64) this.#compact();
  }

  /** Drops the oldest live entry (stale stamps on the way are dropped too). */
  #evict() {
    while (this.#head < this.#keys.length) {
      const key = this.#keys[this.#head], stamp = this.#stamps[this.#head];
      this.#head++;
      if (this.#map.get(key)?.stamp === stamp) {
        this.#map.delete(key);
        break;
      }
    }
    // the consumed front goes once it is half the queue
    if (this.#head > 1024 && this.#head * 2 > this.#keys.length) this.#compact();
  }

  /** Only the live stamps, in order. */
  #compact() {
    const keys: K[] = [], stamps: number[] = [];
    for (let i = this.#head; i < this.#keys.length; i++) {
      const key = this.#keys[i], stamp = this.#stamps[i];
      if (this.#map.get(key)?.stamp === stamp) {
        keys.push(key);
        stamps.push(stamp);
      }
    }
    this.#keys = keys;
    this.#stamps = stamps;
    this.#head = 0;
  }
}

/** A cache of at most `max` entries; when full, the oldest entry goes first. */
export type BoundedCache<K, V> = {
  get(key: K): V | undefined;
  set(key: K, value: V): V;
  readonly size: number;
};

export function boundedCache<K, V>(max: number): BoundedCache<K, V> {
  return new BoundedMap<K, V>(max);
}
