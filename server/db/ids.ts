/** 24-hex ids, time-ordered like the original system's ObjectIds: 4 bytes of seconds + 8 random. */
export function newId(now = Date.now()): string {
  const secs = Math.floor(now / 1000).toString(16).padStart(8, "0");
  const rnd = crypto.getRandomValues(new Uint8Array(8));
  return secs + Array.from(rnd, (b) => b.toString(16).padStart(2, "0")).join("");
}

export const nowIso = () => new Date().toISOString();
