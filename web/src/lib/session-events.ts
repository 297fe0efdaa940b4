/** Hooks run when a session ends (logout or 401), for caches that must not outlive their user. */
const handlers = new Set<() => void>();

export function onSessionEnd(fn: () => void): () => void {
  handlers.add(fn);
  return () => void handlers.delete(fn);
}

export function emitSessionEnd() {
  for (const fn of handlers) {
    try {
      fn();
    } catch (e) {
      console.error(e);
    }
  }
}
