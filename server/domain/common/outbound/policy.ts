/**
 * The outbound policy: which URLs the server may call (design.md section 4). http and https only,
 * on their usual port (80, 443) or one the operator lists in OUTBOUND_PORTS; never an internal
 * address (address.ts) unless the operator lists the host or its range in OUTBOUND_ALLOW, which also
 * frees its port. The synchronous check (`urlRefusal`) needs no look-up: the scheme, the port, an
 * IP literal in any spelling, `localhost`. A name is resolved when it is called (`addressRefusal`).
 */
import {
  type AddressBytes,
  type Cidr,
  describeAddress,
  inCidr,
  internalKind,
  parseAddress,
  parseCidr,
} from "./address.ts";

export type OutboundPolicy = {
  /** Host names (lower case, no trailing dot) the operator allows whatever they resolve to. */
  hosts: ReadonlySet<string>;
  /** Address ranges the operator allows. */
  ranges: readonly Cidr[];
  /** Ports allowed besides 80 (http) and 443 (https). */
  ports: readonly number[];
};

export const EMPTY_POLICY: OutboundPolicy = { hosts: new Set(), ranges: [], ports: [] };

const USUAL_PORT: Record<string, number> = { "http:": 80, "https:": 443 };

/** `host.example, 10.1.0.0/16, 127.0.0.1` -> hosts and ranges; throws naming a bad entry. */
export function parseAllowList(s: string): Pick<OutboundPolicy, "hosts" | "ranges"> {
  const hosts = new Set<string>();
  const ranges: Cidr[] = [];
  for (const raw of s.split(",").map((x) => x.trim()).filter(Boolean)) {
    const range = parseCidr(raw);
    if (range) {
      ranges.push(range);
      continue;
    }
    if (raw.includes("/") || !/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?\.?$/i.test(raw)) {
      throw new Error(`"${raw}" is neither a host name nor an address range like 10.0.0.0/8`);
    }
    hosts.add(hostKey(raw));
  }
  return { hosts, ranges };
}

/** A host as the allow list compares it: lower case, no brackets, no trailing dot. */
const hostKey = (host: string) => host.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");

/** Why a parsed URL may not be called before any look-up, or null. */
export function urlRefusal(url: URL, policy: OutboundPolicy): string | null {
  const usual = USUAL_PORT[url.protocol];
  if (usual === undefined) {
    return `only http and https URLs are called (not ${url.protocol.replace(/:$/, "")})`;
  }
  if (url.username || url.password) return "the URL must not carry a user name or password";
  const host = hostKey(url.hostname);
  const literal = parseAddress(host);
  const allowed = policy.hosts.has(host) || (literal !== null && inRanges(literal, policy));
  if (!allowed) {
    const kind = literal ? internalKind(literal)?.kind : /(^|\.)localhost$/.test(host) ? "loopback" : null;
    if (kind) return internalMessage(literal ? describeAddress(literal) : host, kind);
    const port = url.port === "" ? usual : Number(url.port);
    if (port !== usual && !policy.ports.includes(port)) {
      return `port ${port} is not called (${
        url.protocol === "https:" ? "https uses 443" : "http uses 80"
      }; ` +
        "an operator can list other ports in OUTBOUND_PORTS)";
    }
  }
  return null;
}

/** Why a resolved address of a URL's host may not be called, or null. */
export function addressRefusal(url: URL, address: AddressBytes, policy: OutboundPolicy): string | null {
  if (policy.hosts.has(hostKey(url.hostname)) || inRanges(address, policy)) return null;
  const kind = internalKind(address)?.kind;
  return kind
    ? internalMessage(`${url.hostname} resolves to ${describeAddress(address)}, which`, kind)
    : null;
}

const inRanges = (address: AddressBytes, policy: OutboundPolicy) =>
  policy.ranges.some((r) => inCidr(address, r));

const internalMessage = (what: string, kind: string) =>
  `${what} is ${/^[aeiu]/.test(kind) ? "an" : "a"} ${kind} address: the server does not call internal ` +
  "addresses (an operator can list a host or range in OUTBOUND_ALLOW)";
