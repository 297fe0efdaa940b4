/**
 * Small pure helpers over stored values, with no import of their own: the router's configuration
 * cache uses them too, and the router is one of the app's services (deps.ts -> services.ts), so it
 * must not reach the audit log or the master-data kit (common/records.ts re-exports these).
 */

/** A random key for API access (hex, 48 characters by default); never taken from input. */
export function randomKey(bytes = 24): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}

export function parseJsonList<T = string>(text: string | null | undefined): T[] {
  if (!text) return [];
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}
