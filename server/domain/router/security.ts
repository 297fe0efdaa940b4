/**
 * Request-only security checks of an entry: device type from the user agent, country from a trusted
 * edge header or an embedded IP-to-country database, proxy/VPN and research-defender style scores
 * from a pluggable checker. The count-dependent check (unique IP) is the writer's.
 */
import { packageFile, PACKAGES_READ } from "../../package-files.ts";
import { UAParser } from "ua-parser-js";
import { describeDevice } from "../common/device.ts";
import type { ProjectConfig } from "./config.ts";
import { REASON } from "./outcomes.ts";
import { boundedCache, loadOnce, once } from "../../lib/memo.ts";

export type DeviceType = "mobile" | "tablet" | "desktop";
export type DeviceInfo = { deviceType: DeviceType; browser: string };

/** Parsed user agents (a few thousand distinct ones a day). */
const uaCache = boundedCache<string, DeviceInfo>(5_000);

/** Device class and a readable browser description, cached per user agent string. */
export function deviceOf(userAgent: string): DeviceInfo {
  const hit = uaCache.get(userAgent);
  if (hit) return hit;
  const type = new UAParser(userAgent).getDevice().type;
  const deviceType: DeviceType = type === "mobile" || type === "wearable"
    ? "mobile"
    : type === "tablet"
    ? "tablet"
    : "desktop";
  return uaCache.set(userAgent, { deviceType, browser: describeDevice(userAgent).slice(0, 200) });
}

// ---------------------------------------------------------------- country

type GeoLookup = (ip: string) => string;

/**
 * IP -> ISO alpha-2 country from geoip-country (an embedded, regularly updated database that works
 * offline). Loaded on first use: it costs its data files' read, about 8 MB, once per process.
 */
export const geoLookup: () => GeoLookup | Promise<GeoLookup> = loadOnce(() =>
  import("geoip-country").then((m) => {
    const lib = (m.default ?? m) as { lookup(ip: string): { country?: string } | null };
    return (ip: string) => {
      if (!ip) return "";
      try {
        return lib.lookup(ip)?.country?.toUpperCase() ?? "";
      } catch {
        return "";
      }
    };
  })
);

/** The respondent's country: a trusted edge header when present, else the IP database. */
export async function countryOf(headers: Headers, ip: string, trustedHeaders: readonly string[]) {
  for (const h of trustedHeaders) {
    const v = headers.get(h)?.trim().toUpperCase();
    // Cloudflare says XX for unknown and T1 for Tor
    if (v && /^[A-Z]{2}$/.test(v) && v !== "XX" && v !== "T1") return v;
  }
  const lookup = await geoLookup();
  return lookup(ip);
}

// ---------------------------------------------------------------- proxy / VPN and fraud scores

export type RiskInput = { ip: string; userAgent: string; headers: Headers; sid: string };
export type RiskVerdict = {
  /** A proxy, VPN, Tor exit or datacenter address. */
  proxy: boolean;
  /** Why (provider name, header value) for the session's detail. */
  detail?: string;
  /** Research-defender style risk score, 0 (clean) to 100; null when unknown. */
  rdScore?: number | null;
};
/** Pluggable: the default flags datacenter ranges; a paid service can replace it through deps. */
export interface RiskChecker {
  check(input: RiskInput): RiskVerdict | Promise<RiskVerdict>;
}

/** Scores at or above a threshold are refused when the project's flag of that level is on. */
export type RdThresholds = { low: number; medium: number; high: number };
export const DEFAULT_RD_THRESHOLDS: RdThresholds = { low: 30, medium: 60, high: 85 };

/**
 * Hosting and VPN-heavy networks by AS number (clouds, VPS hosts, networks that VPN services rent):
 * together with the organisation-name test below this catches datacenter traffic, which is what
 * most proxies and VPNs exit from.
 */
const HOSTING_ASNS: ReadonlySet<number> = new Set([
  16509,
  14618, // Amazon
  15169,
  396982, // Google, Google Cloud
  8075, // Microsoft / Azure
  14061, // DigitalOcean
  16276, // OVH
  24940, // Hetzner
  63949, // Linode / Akamai cloud
  20473, // Vultr / Choopa
  31898, // Oracle cloud
  45102, // Alibaba
  132203, // Tencent
  51167, // Contabo
  12876, // Scaleway
  60781,
  28753, // Leaseweb
  9009, // M247
  60068,
  212238, // Datacamp / CDN77
  13335, // Cloudflare (WARP)
  40676, // Psychz
  53667, // FranTech / BuyVM
  36352, // ColoCrossing
  54290, // Hostwinds
  19318, // Interserver
  62240, // Clouvider
  199524, // G-Core
  9312, // xTom
]);
const HOSTING_NAME =
  /\b(hosting|hoster|host(ed)?|cloud|data ?cent(er|re)s?|datacenter|dedicated|vps|virtual server|colo(cation)?|servers?|vpn|proxy|tor exit)\b/i;

const asnFile = (name: string) => packageFile(PACKAGES_READ.asn, name);

/** Reads the ASN database (@ip-location-db/asn, offline) keeping only hosting networks. */
function loadRanges<T extends number | bigint>(file: string, parse: (s: string) => T, next: (x: T) => T) {
  const text = Deno.readTextFileSync(asnFile(file));
  const starts: T[] = [], ends: T[] = [], names: string[] = [];
  let pos = 0, lastAsn = -1;
  while (pos < text.length) {
    let end = text.indexOf("\n", pos);
    if (end < 0) end = text.length;
    const line = text.slice(pos, end);
    pos = end + 1;
    const c1 = line.indexOf(","), c2 = line.indexOf(",", c1 + 1), c3 = line.indexOf(",", c2 + 1);
    if (c3 < 0) continue;
    const asn = Number(line.slice(c2 + 1, c3));
    const org = line.slice(c3 + 1).replace(/^"|"$/g, "");
    if (!HOSTING_ASNS.has(asn) && !HOSTING_NAME.test(org)) continue;
    const s = parse(line.slice(0, c1)), e = parse(line.slice(c1 + 1, c2));
    // the file is sorted; merge touching ranges of the same network to keep the table small
    const last = names.length - 1;
    if (last >= 0 && lastAsn === asn && next(ends[last]) >= s) {
      if (e > ends[last]) ends[last] = e;
      continue;
    }
    starts.push(s);
    ends.push(e);
    names.push(`AS${asn} ${org}`.slice(0, 80));
    lastAsn = asn;
  }
  return { starts, ends, names };
}

/** The hosting networks' IPv4 ranges, read on first use (once per process). */
const ranges4 = once(() => {
  const r = loadRanges("asn-ipv4-num.csv", Number, (x) => x + 1);
  return { starts: Uint32Array.from(r.starts), ends: Uint32Array.from(r.ends), names: r.names };
});
/** The same for IPv6. */
const ranges6 = once(() => loadRanges("asn-ipv6-num.csv", BigInt, (x) => x + 1n));

function ipv4ToInt(ip: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return null;
  const p = m.slice(1).map(Number);
  if (p.some((x) => x > 255)) return null;
  return ((p[0] << 24) >>> 0) + (p[1] << 16) + (p[2] << 8) + p[3];
}

function ipv6ToBig(ip: string): bigint | null {
  if (!ip.includes(":")) return null;
  const [head, tail] = ip.split("::");
  const h = head ? head.split(":") : [];
  const t = tail !== undefined ? (tail ? tail.split(":") : []) : [];
  if (tail === undefined && h.length !== 8) return null;
  const parts = [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  if (parts.length !== 8 || parts.some((x) => !/^[0-9a-f]{1,4}$/i.test(x))) return null;
  return parts.reduce((acc, x) => (acc << 16n) + BigInt(parseInt(x, 16)), 0n);
}

function find<T extends number | bigint>(starts: ArrayLike<T>, ends: ArrayLike<T>, x: T): number {
  let lo = 0, hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] <= x) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi >= 0 && x <= ends[hi] ? hi : -1;
}

/** The hosting network an address belongs to, or null. Loads the range table on first use. */
export function hostingNetwork(ip: string): string | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const v4 = ipv4ToInt(mapped ?? ip);
  if (v4 !== null) {
    const r4 = ranges4();
    const i = find(r4.starts, r4.ends, v4);
    return i < 0 ? null : r4.names[i];
  }
  const v6 = ipv6ToBig(ip);
  if (v6 === null) return null;
  const r6 = ranges6();
  const i = find(r6.starts, r6.ends, v6);
  return i < 0 ? null : r6.names[i];
}

/**
 * The default checker: flags addresses of hosting networks (an offline ASN database), and, when
 * the deployment names them, trusts headers a fronting fraud service sets (`proxyHeader`: any of
 * 1/true/yes; `rdHeader`: a 0-100 score). Never name headers a respondent could set themselves.
 */
export function defaultRiskChecker(opts: { proxyHeader?: string; rdHeader?: string } = {}): RiskChecker {
  return {
    check({ ip, headers }) {
      if (opts.proxyHeader && /^(1|true|yes)$/i.test(headers.get(opts.proxyHeader) ?? "")) {
        return { proxy: true, detail: `${opts.proxyHeader} header`, rdScore: rdFrom(headers, opts.rdHeader) };
      }
      const network = hostingNetwork(ip);
      return { proxy: !!network, detail: network ?? undefined, rdScore: rdFrom(headers, opts.rdHeader) };
    },
  };
}

function rdFrom(headers: Headers, name?: string): number | null {
  if (!name) return null;
  const v = Number(headers.get(name));
  return headers.get(name) !== null && Number.isFinite(v) ? v : null;
}

/** Which RD level a score crosses for this project's flags, or null. */
export function rdRefusal(
  p: ProjectConfig,
  score: number | null | undefined,
  t: RdThresholds,
): string | null {
  if (score === null || score === undefined) return null;
  if (p.isRDLow && score >= t.low) return `score ${score} >= low ${t.low}`;
  if (p.isRDMedium && score >= t.medium) return `score ${score} >= medium ${t.medium}`;
  if (p.isRDHigh && score >= t.high) return `score ${score} >= high ${t.high}`;
  return null;
}

export type SecurityRefusal = { reason: string; detail: string };

/** Device, geo, proxy and RD checks in that order; the first that fails is the outcome. */
export function requestSecurity(
  p: ProjectConfig,
  r: { deviceType: DeviceType; country: string; risk: RiskVerdict | null },
  thresholds: RdThresholds,
): SecurityRefusal | null {
  const allowed = r.deviceType === "mobile"
    ? p.isMobile
    : r.deviceType === "tablet"
    ? p.isTablet
    : p.isDesktop;
  if (!allowed) return { reason: REASON.device, detail: `${r.deviceType} not allowed` };
  // an address the database cannot place (private ranges) is not held against the respondent
  if (p.isGeoLocation && p.countryId && r.country && r.country !== p.countryId) {
    return { reason: REASON.geo, detail: `${r.country} is not ${p.countryId}` };
  }
  if (p.isProxyVpn && r.risk?.proxy) return { reason: REASON.proxy, detail: r.risk.detail ?? "proxy" };
  const rd = rdRefusal(p, r.risk?.rdScore, thresholds);
  if (rd) return { reason: REASON.rdScore, detail: rd };
  return null;
}

/** Loads the country and hosting-network tables now rather than on the first respondent. */
export async function warmSecurityData() {
  await geoLookup();
  hostingNetwork("192.0.2.1");
}

export const needsRiskCheck = (p: ProjectConfig) => p.isProxyVpn || p.isRDLow || p.isRDMedium || p.isRDHigh;
