/**
 * How a secret is shown where it must not appear whole (record answers, logs): its last 4 characters
 * behind a fixed mask, so people can tell keys apart without the key being readable. Short values
 * (under 12 characters) show nothing of themselves.
 */
export const MASK = "••••••••";

export function maskSecret(value: string | null | undefined): string {
  if (!value) return "";
  return value.length >= 12 ? `${MASK}${value.slice(-4)}` : MASK;
}

/** A copy of `record` with the named secret fields masked. */
export function maskFieldsOf<T extends object, K extends keyof T & string>(record: T, keys: readonly K[]): T {
  const out = { ...record };
  for (const k of keys) out[k] = maskSecret(out[k] as string | null | undefined) as T[K];
  return out;
}

/**
 * A form with the masked secret fields it sent back left out: an edit form shows keys masked and
 * sends them as shown, which means "unchanged" (a new key is typed over the mask).
 */
export function withoutMasked<T extends object, K extends keyof T & string>(form: T, keys: readonly K[]) {
  const out: Partial<T> = { ...form };
  for (const k of keys) if (isMasked(out[k] as string | undefined)) delete out[k];
  return out as Omit<T, K> & Partial<Pick<T, K>>;
}

/** Whether a value is what `maskSecret` makes (an edit form sending a masked key back unchanged). */
export function isMasked(value: string | null | undefined): boolean {
  return !!value && value.startsWith(MASK);
}

/** Field names whose values are never shown, not even masked (passwords, cookies). */
export const HIDDEN_FIELD = /^(password|passwordhash|newpassword|oldpassword|cookie|set-cookie)$/i;
/** Field names whose values are secrets (tokens, API/hash/signing keys): shown only masked. */
export const SECRET_FIELD =
  /(authorization|token|secret|api[-_]?key|hash[-_]?key|signing[-_]?key|private[-_]?key|access[-_]?key|partner[-_]?key)/i;

export const isHiddenField = (name: string): boolean => HIDDEN_FIELD.test(name);
export const isSecretField = (name: string): boolean => SECRET_FIELD.test(name);
