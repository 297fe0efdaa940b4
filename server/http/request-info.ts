/** Who is calling from where: IP, device, city and country for the audit log and the router. */
import { UAParser } from "ua-parser-js";
import type { Context } from "hono";

export type RequestInfo = {
  ipAddress: string;
  device: string;
  city: string;
  country: string;
  userAgent: string;
};

/** The client IP: first X-Forwarded-For hop when behind a proxy, else the socket address. */
export function clientIp(c: Context): string {
  const xff = c.req.header("x-forwarded-for");
  if (xff) return xff.split(",")[0].trim();
  const real = c.req.header("x-real-ip") ?? c.req.header("cf-connecting-ip");
  if (real) return real.trim();
  // deno-lint-ignore no-explicit-any
  const info = (c.env as any)?.remoteAddr ?? (c.env as any)?.info?.remoteAddr;
  return info?.hostname ?? "";
}

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

/** City and country from a trusted edge header when deployed behind one. */
export function requestInfo(c: Context): RequestInfo {
  const userAgent = c.req.header("user-agent") ?? "";
  return {
    ipAddress: clientIp(c),
    device: describeDevice(userAgent),
    city: c.req.header("cf-ipcity") ?? c.req.header("x-vercel-ip-city") ?? c.req.header("x-geo-city") ?? "",
    country: c.req.header("cf-ipcountry") ?? c.req.header("x-vercel-ip-country") ??
      c.req.header("x-geo-country") ?? "",
    userAgent,
  };
}
