/**
 * mulberry32: a small seeded generator, uniform in [0, 1). Not for secrets: for data that must come
 * out the same from the same seed (the demo traffic, the sandbox provider's offers, the marketplace
 * simulation).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
