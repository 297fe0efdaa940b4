/**
 * The outbound policy (server/domain/common/outbound): every spelling of an internal address is
 * refused, before any look-up for literals and after resolving for names; public addresses, http(s)
 * on their usual or configured ports, and what OUTBOUND_ALLOW lists pass.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { Outbound, OutboundRefused } from "../../server/domain/common/outbound/client.ts";
import { EMPTY_POLICY, parseAllowList } from "../../server/domain/common/outbound/policy.ts";
import { outboundFor } from "../../server/boot.ts";
import { loadEnv } from "../../server/env.ts";

/** [URL, the kind of address named in the refusal]: each refused with no OUTBOUND_ALLOW. */
const INTERNAL: [string, string][] = [
  ["http://127.0.0.1/", "loopback"],
  ["http://127.1/", "loopback"],
  ["http://2130706433/", "loopback"],
  ["http://0x7f000001/", "loopback"],
  ["http://0177.0.0.1/", "loopback"],
  ["http://0x7f.1/", "loopback"],
  ["http://%31%32%37.0.0.1/", "loopback"],
  ["http://127.255.255.254:80/", "loopback"],
  ["http://[::1]/", "loopback"],
  ["http://[0:0:0:0:0:0:0:1]/", "loopback"],
  ["http://[::ffff:127.0.0.1]/", "loopback"],
  ["http://[::ffff:7f00:1]/", "loopback"],
  ["http://[::127.0.0.1]/", "loopback"],
  ["http://[2002:7f00:1::]/", "loopback"],
  ["http://localhost/", "loopback"],
  ["http://LOCALHOST./hook", "loopback"],
  ["https://api.localhost/", "loopback"],
  ["http://169.254.169.254/latest/meta-data/", "link-local"],
  ["http://0xa9fea9fe/", "link-local"],
  ["http://2852039166/", "link-local"],
  ["http://[::ffff:169.254.169.254]/", "link-local"],
  ["http://[64:ff9b::a9fe:a9fe]/", "link-local"],
  ["http://[fe80::1]/", "link-local"],
  ["http://10.0.0.1/", "private"],
  ["http://012.1/", "private"],
  ["http://10.255.255.255/", "private"],
  ["http://172.16.0.1/", "private"],
  ["http://172.31.255.255/", "private"],
  ["http://192.168.1.1/", "private"],
  ["http://[::ffff:192.168.0.1]/", "private"],
  ["http://[fc00::]/", "unique-local"],
  ["http://[fd12:3456::1]/", "unique-local"],
  ["http://0.0.0.0/", "unspecified"],
  ["http://0/", "unspecified"],
  ["http://[::]/", "unspecified"],
  ["http://0.1.2.3/", "this network"],
  ["http://224.0.0.1/", "multicast"],
  ["http://239.255.255.250/", "multicast"],
  ["http://[ff02::1]/", "multicast"],
  ["http://255.255.255.255/", "broadcast"],
  // carrier-grade NAT: internal inside clouds (Alibaba's metadata service is 100.100.100.200)
  ["http://100.64.0.1/", "carrier-grade NAT"],
  ["http://100.100.100.200/", "carrier-grade NAT"],
  ["http://240.0.0.1/", "reserved"],
];

const PUBLIC = [
  "https://panel.example/hook?uid=[uid]",
  "http://8.8.8.8/",
  "https://[2606:4700:4700::1111]/",
  "http://[::ffff:8.8.8.8]/",
  "http://172.32.0.1/",
  "http://172.15.255.255/",
  "http://100.128.0.1/",
  "http://169.255.0.1/",
  "http://11.0.0.1/",
  "http://panel.example:80/",
  "https://panel.example:443/",
  "https://[sid].panel.example/hook",
];

const outbound = new Outbound(EMPTY_POLICY);

Deno.test(`outbound: ${INTERNAL.length} spellings of internal addresses are refused before any look-up, naming the kind`, () => {
  const missed: string[] = [];
  for (const [url, kind] of INTERNAL) {
    const why = outbound.refusal(url);
    if (!why?.includes(kind) || !why.includes("OUTBOUND_ALLOW")) missed.push(`${url}: ${why}`);
  }
  assertEquals(missed, []);
});

Deno.test("outbound: public addresses and names on their usual ports pass", () => {
  assertEquals(PUBLIC.map((u) => [u, outbound.refusal(u)]), PUBLIC.map((u) => [u, null]));
});

Deno.test("outbound: only http and https, no credentials in the URL, only the usual or configured ports", () => {
  assertMatch(outbound.refusal("ftp://panel.example/x")!, /only http and https/);
  assertMatch(outbound.refusal("gopher://panel.example/x")!, /only http and https/);
  assertMatch(outbound.refusal("https://user:pw@panel.example/")!, /user name or password/);
  assertMatch(outbound.refusal("http://panel.example:8080/")!, /port 8080 .*OUTBOUND_PORTS/);
  assertMatch(outbound.refusal("http://panel.example:443/")!, /port 443 .*http uses 80/);
  assertMatch(outbound.refusal("http://panel.example:22/")!, /port 22/);
  assertEquals(outbound.refusal("not a url"), "not a valid URL");
  const ports = outboundFor(loadEnv({ OUTBOUND_PORTS: "8080, 8443" }));
  assertEquals(ports.refusal("http://panel.example:8080/"), null);
  assertEquals(ports.refusal("https://panel.example:8443/"), null);
  assertMatch(ports.refusal("http://panel.example:9000/")!, /port 9000/);
});

Deno.test("outbound: OUTBOUND_ALLOW lets a listed host and a listed range through, on any port; nothing else", () => {
  const o = outboundFor(loadEnv({ OUTBOUND_ALLOW: "hooks.internal, 10.20.0.0/16, 127.0.0.1, fd00::/8" }));
  assertEquals(o.refusal("http://hooks.internal:8081/x"), null);
  assertEquals(o.refusal("http://HOOKS.internal./x"), null);
  assertEquals(o.refusal("http://10.20.3.4:9000/"), null);
  assertEquals(o.refusal("http://0x0a140304/"), null, "the range holds whatever spelling");
  assertEquals(o.refusal("http://127.0.0.1:45678/"), null);
  assertEquals(o.refusal("http://[::ffff:127.0.0.1]:45678/"), null);
  assertEquals(o.refusal("http://[fd00::5]:81/"), null);
  assertMatch(o.refusal("http://127.0.0.2/")!, /loopback/);
  assertMatch(o.refusal("http://10.21.0.1/")!, /private/);
  assertMatch(o.refusal("http://other.internal.evil:8081/")!, /port 8081/);
  assertMatch(o.refusal("http://169.254.169.254/")!, /link-local/);
});

Deno.test("outbound: a bad OUTBOUND_ALLOW or OUTBOUND_PORTS stops the start with a clear message", () => {
  const problem = (env: Record<string, string>) => {
    try {
      loadEnv(env);
    } catch (e) {
      return (e as Error).message;
    }
    return "";
  };
  assertMatch(
    problem({ OUTBOUND_ALLOW: "10.0.0.0/33" }),
    /OUTBOUND_ALLOW: "10.0.0.0\/33" is neither a host name/,
  );
  assertMatch(problem({ OUTBOUND_ALLOW: "http://x.y/" }), /OUTBOUND_ALLOW/);
  assertMatch(problem({ OUTBOUND_PORTS: "80,http" }), /OUTBOUND_PORTS must be port numbers/);
  assertEquals(parseAllowList(" a.example ,, 10.0.0.0/8 ").hosts.has("a.example"), true);
});

Deno.test("outbound: a name that resolves to an internal address is refused when called, before any connection", async () => {
  const tried: string[] = [];
  const o = outbound.with({
    resolve: (host) =>
      Promise.resolve(
        ({
          "evil.example": ["10.0.0.5"],
          "mixed.example": ["8.8.8.8", "fd00::1"],
          "meta.example": ["169.254.169.254"],
        })[
          host
        ] ?? [],
      ),
    transport: (x) => {
      tried.push(x.url.href);
      return Promise.resolve({ status: 200, headers: new Headers(), body: new Uint8Array() });
    },
  });
  for (
    const [url, kind] of [
      ["http://evil.example/", "private"],
      ["http://mixed.example/", "unique-local"],
      ["https://meta.example/", "link-local"],
    ]
  ) {
    const e = await o.request(url).then(() => null, (e) => e);
    assert(e instanceof OutboundRefused, `${url}: ${e}`);
    assertMatch(e.reason, new RegExp(`resolves to .* ${kind} address`));
  }
  // the system resolver: localhost is the machine itself
  const e = await outbound.request("http://localhost./").then(() => null, (e) => e);
  assert(e instanceof OutboundRefused);
  assertEquals(tried, []);
});
