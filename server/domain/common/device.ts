/** A user agent in words, for the audit log and the router's session records. */
import { UAParser } from "ua-parser-js";

/** "Chrome 130 on Windows (desktop)" style description of a user agent. */
export function describeDevice(userAgent: string): string {
  if (!userAgent) return "";
  const r = new UAParser(userAgent).getResult();
  const browser = [r.browser.name, r.browser.major].filter(Boolean).join(" ");
  const os = [r.os.name, r.os.version].filter(Boolean).join(" ");
  const kind = r.device.type ?? "desktop";
  if (!browser && !os) return userAgent.slice(0, 120);
  return `${browser || "Unknown browser"} on ${os || "unknown OS"} (${kind})`;
}
