/** Who is calling from where: IP, device, city and country for the audit log and the router. */
import { describeDevice } from "../domain/common/device.ts";
import type { HttpCtx } from "./context.ts";

export type RequestInfo = {
  ipAddress: string;
  device: string;
  city: string;
  country: string;
  userAgent: string;
};

/**
 * The client IP. Forwarding headers are anyone's to write, so only what the deployment trusts
 * (env, read from deps) is believed:
 * - `CLIENT_IP_HEADER` (e.g. cf-connecting-ip): the one header the edge sets, when present;
 * - `TRUST_PROXY_HOPS` = N >= 1: behind N proxies that each append the address they saw, so the
 *   Nth entry from the right of X-Forwarded-For is the client (entries left of it are the
 *   client's own claims); fewer entries than N: the socket address;
 * - otherwise (the default, 0): the socket address, every forwarding header ignored.
 */
export function clientIp(c: HttpCtx): string {
  const env = c.get("deps")?.env;
  if (env?.CLIENT_IP_HEADER) {
    const v = c.req.header(env.CLIENT_IP_HEADER)?.trim();
    if (v) return v;
  }
  const hops = env?.TRUST_PROXY_HOPS ?? 0;
  if (hops === 0 && !env?.CLIENT_IP_HEADER) warnUntrustedProxy(c);
  if (hops > 0) {
    const hopsSeen = (c.req.header("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
    if (hopsSeen.length >= hops) return hopsSeen[hopsSeen.length - hops];
  }
  return socketAddress(c);
}

/** The deployments already warned (one warning per running app, at the first such request). */
const warned = new WeakSet<object>();

/**
 * A request that came through a proxy (it carries X-Forwarded-For) while no hop is trusted: every
 * client has the proxy's address, so the per-address sign-in limit and the audit log's IP see one
 * client. Said once, in the log, so the operator sets TRUST_PROXY_HOPS (or CLIENT_IP_HEADER).
 */
function warnUntrustedProxy(c: HttpCtx): void {
  const deps = c.get("deps");
  if (!deps || warned.has(deps) || !c.req.header("x-forwarded-for")) return;
  warned.add(deps);
  deps.log.warn(
    "requests carry X-Forwarded-For but TRUST_PROXY_HOPS is 0: every client is seen with the proxy's " +
      "address (sign-in limits and audit IPs); set TRUST_PROXY_HOPS to the number of proxies in front " +
      "(or CLIENT_IP_HEADER)",
    { remoteAddress: socketAddress(c) },
  );
}

function socketAddress(c: HttpCtx): string {
  // deno-lint-ignore no-explicit-any
  const info = (c.env as any)?.remoteAddr ?? (c.env as any)?.info?.remoteAddr;
  return info?.hostname ?? "";
}

/** City and country only from the edge headers the deployment names (COUNTRY_HEADER, CITY_HEADER). */
export function requestInfo(c: HttpCtx): RequestInfo {
  const env = c.get("deps")?.env;
  const userAgent = c.req.header("user-agent") ?? "";
  const edge = (name: string | undefined) => (name ? c.req.header(name)?.trim().slice(0, 100) ?? "" : "");
  return {
    ipAddress: clientIp(c),
    device: describeDevice(userAgent),
    city: edge(env?.CITY_HEADER),
    country: edge(env?.COUNTRY_HEADER),
    userAgent,
  };
}
