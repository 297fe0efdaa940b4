import { useEffect, useState } from "react";
import { TIMING } from "./timing.ts";

/** How long the async clipboard may take before the textarea fallback is used instead. */
export const CLIPBOARD_TIMEOUT_MS = 1000;

/**
 * Settles with the promise, or rejects after `ms`: the async clipboard can stay pending for good
 * (a permission prompt nobody answers, a page without focus in a headless browser).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what = "clipboard"): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Copies text, falling back to a hidden textarea where the async clipboard is unavailable, fails,
 * or does not answer within CLIPBOARD_TIMEOUT_MS; it never keeps the caller waiting longer.
 */
export async function copyText(text: string, timeoutMs = CLIPBOARD_TIMEOUT_MS): Promise<boolean> {
  try {
    if (navigator.clipboard && globalThis.isSecureContext) {
      await withTimeout(navigator.clipboard.writeText(text), timeoutMs);
      return true;
    }
  } catch { /* fall back */ }
  return copyWithTextarea(text);
}

function copyWithTextarea(text: string): boolean {
  if (typeof document === "undefined") return false;
  const ta = document.createElement("textarea");
  ta.value = text;
  ta.setAttribute("readonly", "");
  ta.style.position = "fixed";
  ta.style.opacity = "0";
  document.body.appendChild(ta);
  ta.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  ta.remove();
  return ok;
}

/**
 * A copy button's state: `copy(text)` copies and, when it worked, sets `copied` for
 * TIMING.copiedIndicatorMs (the check mark); it answers whether it worked, for the caller's notice.
 */
export function useCopyMark(): { copied: boolean; copy: (text: string) => Promise<boolean> } {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), TIMING.copiedIndicatorMs);
    return () => clearTimeout(t);
  }, [copied]);
  async function copy(text: string) {
    const ok = await copyText(text);
    if (ok) setCopied(true);
    return ok;
  }
  return { copied, copy };
}
