/**
 * Which network addresses the server may call on a URL someone typed (design.md section 4,
 * outbound): the public internet, not the machine itself, its networks or its cloud's metadata
 * service. Addresses are read as bytes, so every spelling of one address (`127.1`, `2130706433`,
 * `0x7f000001`, `0177.0.0.1`, `::ffff:7f00:1`...) lands on the same rule; the URL parser already
 * turns the short, octal, hex and decimal IPv4 forms of an http(s) URL into dotted quads.
 */

/** An address as bytes: 4 (IPv4) or 16 (IPv6). */
export type AddressBytes = Uint8Array;

/** A dotted quad (or an inet_aton short form: `127.1`, `0x7f.1`, `2130706433`) as 4 bytes; null if not one. */
export function parseIPv4(s: string): AddressBytes | null {
  const parts = s.split(".");
  if (parts.length > 4 || parts.some((p) => p === "")) return null;
  const nums: number[] = [];
  for (const p of parts) {
    const m = /^(?:0x([0-9a-f]*)|(0[0-7]*)|([1-9][0-9]*))$/i.exec(p);
    if (!m) return null;
    const n = m[1] !== undefined
      ? parseInt(m[1] || "0", 16)
      : m[2] !== undefined
      ? parseInt(m[2], 8)
      : Number(m[3]);
    if (!Number.isFinite(n)) return null;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return null;
  const out = new Uint8Array(4);
  nums.forEach((n, i) => (out[i] = n));
  for (let i = 3, rest = last; i >= nums.length; i--, rest = Math.floor(rest / 256)) out[i] = rest % 256;
  return out;
}

/** An IPv6 address (with `::` and a dotted IPv4 tail, no brackets, no zone) as 16 bytes; null if not one. */
export function parseIPv6(s: string): AddressBytes | null {
  if (!/^[0-9a-f:.]+$/i.test(s) || s.length > 45) return null;
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (h: string): number[] | null => {
    if (h === "") return [];
    const out: number[] = [];
    const parts = h.split(":");
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      if (i === parts.length - 1 && p.includes(".")) {
        const v4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(p) ? parseIPv4(p) : null;
        if (!v4) return null;
        out.push(v4[0] * 256 + v4[1], v4[2] * 256 + v4[3]);
      } else if (/^[0-9a-f]{1,4}$/i.test(p)) out.push(parseInt(p, 16));
      else return null;
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...new Array(missing).fill(0), ...tail];
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 255;
  });
  return out;
}

/** An IP literal in any of its spellings (brackets allowed around IPv6) as bytes; null for a name. */
export function parseAddress(s: string): AddressBytes | null {
  const bare = s.startsWith("[") && s.endsWith("]") ? s.slice(1, -1) : s;
  return bare.includes(":") ? parseIPv6(bare) : parseIPv4(bare);
}

export function formatAddress(b: AddressBytes): string {
  if (b.length === 4) return [...b].join(".");
  const g = Array.from({ length: 8 }, (_, i) => ((b[2 * i] << 8) | b[2 * i + 1]).toString(16));
  return g.join(":").replace(/(^|:)0(:0)+(:|$)/, "::").replace(/:{3,}/, "::");
}

/** An address range: `10.0.0.0/8`, `fd00::/8`, or one address (the whole prefix). */
export type Cidr = { bytes: AddressBytes; prefix: number };

export function parseCidr(s: string): Cidr | null {
  const [addr, bits, extra] = s.split("/");
  if (extra !== undefined) return null;
  const bytes = parseAddress(addr);
  if (!bytes) return null;
  const max = bytes.length * 8;
  if (bits === undefined) return { bytes, prefix: max };
  if (!/^\d{1,3}$/.test(bits) || +bits > max) return null;
  return { bytes, prefix: +bits };
}

/** An IPv4-mapped IPv6 address as its IPv4 address; any other address as it is. */
export function unmapped(b: AddressBytes): AddressBytes {
  const mapped = b.length === 16 && b.subarray(0, 10).every((x) => x === 0) && b[10] === 255 && b[11] === 255;
  return mapped ? b.slice(12) : b;
}

export function inCidr(address: AddressBytes, range: Cidr): boolean {
  const a = unmapped(address);
  const r = unmapped(range.bytes);
  const prefix = range.prefix - (range.bytes.length - r.length) * 8;
  if (a.length !== r.length || prefix < 0) return false;
  for (let bit = 0; bit < prefix; bit++) {
    const byte = bit >> 3, mask = 0x80 >> (bit & 7);
    if ((a[byte] & mask) !== (r[byte] & mask)) return false;
  }
  return true;
}

type Rule = { range: Cidr; kind: string } | { range: Cidr; embedded: (b: AddressBytes) => AddressBytes };
const rule = (cidr: string, kind: string): Rule => ({ range: parseCidr(cidr)!, kind });
const embeds = (cidr: string, embedded: (b: AddressBytes) => AddressBytes): Rule => ({
  range: parseCidr(cidr)!,
  embedded,
});

/** The ranges the server never calls unless OUTBOUND_ALLOW names them, first match wins. */
const RULES: Rule[] = [
  rule("0.0.0.0/32", "unspecified"),
  rule("0.0.0.0/8", "'this network' (unspecified)"),
  rule("127.0.0.0/8", "loopback"),
  rule("10.0.0.0/8", "private"),
  rule("172.16.0.0/12", "private"),
  rule("192.168.0.0/16", "private"),
  // carrier-grade NAT space: inside clouds it is internal too (100.100.100.200 is a metadata service)
  rule("100.64.0.0/10", "shared (carrier-grade NAT)"),
  rule("169.254.0.0/16", "link-local"),
  rule("192.0.0.0/24", "reserved (IETF protocol assignments)"),
  rule("198.18.0.0/15", "reserved (benchmarking)"),
  rule("224.0.0.0/4", "multicast"),
  rule("255.255.255.255/32", "broadcast"),
  rule("240.0.0.0/4", "reserved"),
  rule("::/128", "unspecified"),
  rule("::1/128", "loopback"),
  embeds("::ffff:0:0/96", (b) => b.slice(12)),
  embeds("::/96", (b) => b.slice(12)), // IPv4-compatible (deprecated)
  embeds("64:ff9b::/96", (b) => b.slice(12)), // NAT64
  rule("64:ff9b:1::/48", "private (local NAT64)"),
  embeds("2002::/16", (b) => b.slice(2, 6)), // 6to4
  rule("100::/64", "reserved (discard)"),
  rule("fc00::/7", "unique-local"),
  rule("fe80::/10", "link-local"),
  rule("fec0::/10", "site-local"),
  rule("ff00::/8", "multicast"),
];

/**
 * Why the server must not call this address (`loopback`, `private`...), or null for a public one;
 * `embedded` is the IPv4 address an IPv6 one carries (mapped, NAT64, 6to4) when that decided.
 */
export function internalKind(address: AddressBytes): { kind: string; embedded?: AddressBytes } | null {
  for (const r of RULES) {
    if (r.range.bytes.length !== address.length || !inCidr(address, r.range)) continue;
    if ("kind" in r) return { kind: r.kind };
    const inner = r.embedded(address);
    const found = internalKind(inner);
    return found && { kind: found.kind, embedded: inner };
  }
  return null;
}

/** An address as a refusal names it: `::ffff:a00:1 (10.0.0.1)` for one that carries an IPv4 address. */
export function describeAddress(address: AddressBytes): string {
  const embedded = internalKind(address)?.embedded;
  return embedded ? `${formatAddress(address)} (${formatAddress(embedded)})` : formatAddress(address);
}
