/**
 * 24-hex ids, time-ordered like the original system's ObjectIds: 4 bytes of seconds, 2 bytes of this
 * process's sequence within that second, then 6 random bytes (48 bits: an id that is seen, such as a
 * respondent's uid in a link, tells nothing of its neighbours'). The sequence keeps a process's ids
 * rising, so the rows a commit adds sit together at the end of every index on their id instead of
 * on pages all over that second's range: fewer pages written per commit (and replayed by every
 * replica of a libSQL server).
 */
const sequence = { sec: -1, n: 0 };

export function newId(now = Date.now()): string {
  const sec = Math.floor(now / 1000);
  if (sec !== sequence.sec) {
    sequence.sec = sec;
    sequence.n = 0;
  }
  // past 65,536 ids in a second the sequence wraps: still unique (48 random bits), no longer in order
  const n = sequence.n++ & 0xffff;
  const rnd = crypto.getRandomValues(new Uint8Array(6));
  return sec.toString(16).padStart(8, "0") + n.toString(16).padStart(4, "0") +
    Array.from(rnd, (b) => b.toString(16).padStart(2, "0")).join("");
}
export const nowIso = () => new Date().toISOString();
