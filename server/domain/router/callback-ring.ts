/**
 * The hand-over of callbacks to the worker without waking it (./callback-thread.ts): the app's
 * thread writes each message (a string) into a ring in shared memory, and the worker reads what is
 * there when its own timer fires. A postMessage to a waiting worker cost the app's thread about
 * 40 µs idle and several hundred under load (the wake), more than the callbacks it carried.
 *
 * One writer (the app's thread) and one reader (the worker): the writer moves only the written
 * count and the reader only the read count, each stored atomically after the bytes it covers, so
 * neither ever sees the other's half-done work. The counts only grow (as 64-bit integers); a
 * position in the ring is a count modulo its size, and a message that reaches the end goes on at
 * the start. A message is its length (4 bytes) and its UTF-8 bytes.
 */

/** Bytes of the ring (a backlog of 16 MB is minutes of callbacks at full speed). */
export const RING_BYTES = 16 * 1024 * 1024;
const HEAD = 16;

export class CallbackRing {
  readonly #counts: BigInt64Array;
  readonly #bytes: Uint8Array;
  readonly #size: number;

  /** A new ring (`bytes` of data: CallbackRing.memory), or the reader's view of the writer's. */
  constructor(readonly shared: SharedArrayBuffer = CallbackRing.memory(RING_BYTES)) {
    this.#counts = new BigInt64Array(shared, 0, 2);
    this.#bytes = new Uint8Array(shared, HEAD);
    this.#size = this.#bytes.length;
  }

  /** The shared memory of a ring of `bytes` bytes of data. */
  static memory(bytes: number): SharedArrayBuffer {
    return new SharedArrayBuffer(HEAD + bytes);
  }

  /** Writes a message; false (nothing written) when the ring has no room for it. */
  write(text: string): boolean {
    const data = new TextEncoder().encode(text);
    const written = Atomics.load(this.#counts, 0), read = Atomics.load(this.#counts, 1);
    const need = 4 + data.length;
    if (Number(written - read) + need > this.#size) return false;
    const length = new Uint8Array(4);
    new DataView(length.buffer).setUint32(0, data.length);
    let at = Number(written % BigInt(this.#size));
    at = this.#put(at, length);
    this.#put(at, data);
    Atomics.store(this.#counts, 0, written + BigInt(need));
    return true;
  }

  /** Every message written since the last read, in order. */
  readAll(): string[] {
    const written = Atomics.load(this.#counts, 0);
    let read = Atomics.load(this.#counts, 1);
    const out: string[] = [];
    const decoder = new TextDecoder();
    while (read < written) {
      let at = Number(read % BigInt(this.#size));
      const length = new Uint8Array(4);
      at = this.#take(at, length);
      const data = new Uint8Array(new DataView(length.buffer).getUint32(0));
      this.#take(at, data);
      out.push(decoder.decode(data));
      read += BigInt(4 + data.length);
    }
    Atomics.store(this.#counts, 1, read);
    return out;
  }

  /** Copies `src` in at `at`, going on at the start past the end; the position after it. */
  #put(at: number, src: Uint8Array): number {
    const first = Math.min(src.length, this.#size - at);
    this.#bytes.set(src.subarray(0, first), at);
    if (first < src.length) this.#bytes.set(src.subarray(first), 0);
    return (at + src.length) % this.#size;
  }

  /** Copies out `dst.length` bytes from `at` (on at the start past the end); the position after them. */
  #take(at: number, dst: Uint8Array): number {
    const first = Math.min(dst.length, this.#size - at);
    dst.set(this.#bytes.subarray(at, at + first));
    if (first < dst.length) dst.set(this.#bytes.subarray(0, dst.length - first), first);
    return (at + dst.length) % this.#size;
  }
}
