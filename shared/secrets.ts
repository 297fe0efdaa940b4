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

/** Whether a value is what `maskSecret` makes (an edit form sending a masked key back unchanged). */
export function isMasked(value: string | null | undefined): boolean {
  return !!value && value.startsWith(MASK);
}
