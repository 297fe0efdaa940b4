/**
 * The outbound client over the network (node:http to the checked address): local listeners are
 * internal, so they are reached only when OUTBOUND_ALLOW (read from the environment) lists them;
 * a redirect is checked like the first URL; the connection goes to the address that was checked
 * (one look-up per hop, no second one for the socket); time and size are bounded.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { fetchTransport, OutboundRefused } from "../../server/domain/common/outbound/client.ts";
import { outboundFor } from "../../server/boot.ts";
import { loadEnv } from "../../server/env.ts";

type Seen = { path: string; host: string | null; headers: string[] };

/** A local listener on 127.0.0.1 answering with `answer`, recording what reached it. */
function listener(answer: (req: Request) => Response | Promise<Response> = () => new Response("ok")) {
  const seen: Seen[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push({
      path: new URL(req.url).pathname,
      host: req.headers.get("host"),
      headers: [...req.headers.keys()],
    });
    return answer(req);
  });
  return { seen, port: server.addr.port, close: () => server.shutdown() };
}

const clientWith = (env: Record<string, string>, resolve?: (host: string) => Promise<string[]>) =>
  outboundFor(loadEnv(env)).with(resolve ? { resolve } : {});

const refusedBy = async (p: Promise<unknown>) => {
  const e = await p.then(() => null, (e) => e);
  assert(e instanceof OutboundRefused, `expected a refusal, got ${e}`);
  return e.reason;
};

Deno.test("outbound: a local listener is refused without OUTBOUND_ALLOW and reached with its address or range listed", async () => {
  const l = listener();
  try {
    const url = `http://127.0.0.1:${l.port}/hook`;
    assertMatch(await refusedBy(clientWith({}).request(url)), /127\.0\.0\.1 is a loopback address/);
    assertMatch(await refusedBy(clientWith({ OUTBOUND_ALLOW: "10.0.0.0/8" }).request(url)), /loopback/);
    assertEquals(l.seen, [], "nothing reached the listener");

    const byAddress = await clientWith({ OUTBOUND_ALLOW: "127.0.0.1" }).request(url);
    assertEquals([byAddress.status, new TextDecoder().decode(byAddress.body)], [200, "ok"]);
    const byRange = await clientWith({ OUTBOUND_ALLOW: "127.0.0.0/8" }).request(url);
    assertEquals(byRange.status, 200);
    assertEquals(l.seen.length, 2);
  } finally {
    await l.close();
  }
});

Deno.test("outbound: a listed host name is reached at the address it resolved to, with its name as Host and nothing ambient", async () => {
  const l = listener();
  const looked: string[] = [];
  try {
    const o = clientWith({ OUTBOUND_ALLOW: "hooks.internal" }, (host) => {
      looked.push(host);
      // a second answer would point elsewhere (DNS rebinding): the socket must not ask again
      return Promise.resolve(looked.length === 1 ? ["127.0.0.1"] : ["192.0.2.1"]);
    });
    const res = await o.request(`http://hooks.internal:${l.port}/x?a=1`, {
      headers: { "Idempotency-Key": "k1" },
    });
    assertEquals(res.status, 200);
    assertEquals(looked, ["hooks.internal"], "one look-up, and the connection went to its answer");
    assertEquals(l.seen[0].host, `hooks.internal:${l.port}`);
    assert(l.seen[0].headers.includes("idempotency-key"));
    for (const ambient of ["cookie", "authorization", "proxy-authorization"]) {
      assert(!l.seen[0].headers.includes(ambient), `${ambient} sent`);
    }
    // the same name not listed: its loopback answer is refused
    const unlisted = clientWith({}, () => Promise.resolve(["127.0.0.1"]));
    assertMatch(
      await refusedBy(unlisted.request(`http://hooks.example/x`)),
      /hooks\.example resolves to 127\.0\.0\.1, which is a loopback address/,
    );
    assertEquals(l.seen.length, 1);
  } finally {
    await l.close();
  }
});

Deno.test("outbound: a redirect from an allowed host to a refused one is refused at that hop, the target never called", async () => {
  const target = listener();
  const hops = listener((req) => {
    const to = new URL(req.url).searchParams.get("to")!;
    return new Response(null, { status: 302, headers: { location: to } });
  });
  try {
    const o = clientWith({ OUTBOUND_ALLOW: "hooks.internal" }, () => Promise.resolve(["127.0.0.1"]));
    const via = (to: string) => `http://hooks.internal:${hops.port}/r?to=${encodeURIComponent(to)}`;
    for (
      const [to, rule] of [
        [`http://127.0.0.1:${target.port}/secret`, /127\.0\.0\.1 is a loopback address/],
        [`http://localhost:${target.port}/secret`, /localhost is a loopback address/],
        [`http://169.254.169.254/latest/meta-data/`, /link-local/],
        [`http://[::ffff:7f00:1]:${target.port}/`, /loopback/],
        [`file:///etc/passwd`, /only http and https/],
      ] as const
    ) {
      assertMatch(await refusedBy(o.request(via(to))), rule);
    }
    assertEquals(target.seen.length, 0, "no redirect reached the internal target");
    assertEquals(hops.seen.length, 5);
    // a redirect that stays on an allowed host is followed
    const ok = await o.request(via(`http://hooks.internal:${target.port}/fine`));
    assertEquals([ok.status, ok.url], [200, `http://hooks.internal:${target.port}/fine`]);
    assertEquals(target.seen.map((s) => s.path), ["/fine"]);
  } finally {
    await target.close();
    await hops.close();
  }
});

Deno.test("outbound: a redirect to another origin carries none of the caller's keys; one on the same origin keeps them", async () => {
  const headersSeen: Record<string, string | null>[] = [];
  const keys = ["authorization", "x-api-key", "cookie", "idempotency-key", "content-type"];
  const target = listener((req) => {
    headersSeen.push(Object.fromEntries(keys.map((k) => [k, req.headers.get(k)])));
    return new Response("ok");
  });
  const hops = listener((req) => {
    const u = new URL(req.url);
    if (u.pathname === "/same") {
      headersSeen.push(Object.fromEntries(keys.map((k) => [k, req.headers.get(k)])));
      return new Response("same");
    }
    return new Response(null, { status: 307, headers: { location: u.searchParams.get("to")! } });
  });
  try {
    const o = clientWith({ OUTBOUND_ALLOW: "127.0.0.1" });
    const headers = {
      Authorization: "Bearer secret-1",
      "X-Api-Key": "secret-2",
      Cookie: "s=secret-3",
      "Idempotency-Key": "k-1",
      "Content-Type": "application/json",
    };
    const via = (to: string) => `http://127.0.0.1:${hops.port}/r?to=${encodeURIComponent(to)}`;
    // another port is another origin: only the headers that carry no key go on
    const other = await o.request(via(`http://127.0.0.1:${target.port}/hook`), {
      method: "POST",
      headers,
      body: "{}",
    });
    assertEquals(other.status, 200);
    assertEquals(headersSeen.pop(), {
      authorization: null,
      "x-api-key": null,
      cookie: null,
      "idempotency-key": "k-1",
      "content-type": "application/json",
    });
    // the same origin: all of them
    const same = await o.request(via(`http://127.0.0.1:${hops.port}/same`), {
      method: "POST",
      headers,
      body: "{}",
    });
    assertEquals(new TextDecoder().decode(same.body), "same");
    assertEquals(headersSeen.pop(), {
      authorization: "Bearer secret-1",
      "x-api-key": "secret-2",
      cookie: "s=secret-3",
      "idempotency-key": "k-1",
      "content-type": "application/json",
    });
  } finally {
    await target.close();
    await hops.close();
  }
});

Deno.test("outbound: a slow answer is cut at the time limit and a large one at the size cap", async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => release = r);
  const slow = listener(async () => {
    await held;
    return new Response("late");
  });
  const big = listener(() => new Response("x".repeat(100_000)));
  try {
    const o = clientWith({ OUTBOUND_ALLOW: "127.0.0.1" });
    const late = await o.with({ timeoutMs: 300 }).request(`http://127.0.0.1:${slow.port}/`).then(
      () => null,
      (e) => e,
    );
    assert(late instanceof Error && !(late instanceof OutboundRefused), String(late));
    assertMatch(late.message, /no complete answer in time/);
    const capped = o.with({ maxBytes: 1024 });
    const large = await capped.request(`http://127.0.0.1:${big.port}/`).then(() => null, (e) => e);
    assertMatch(String(large), /larger than 1024 bytes/);
    // the same cap when a fetch carries the call (tests' fakes)
    const viaFetch = capped.with({ transport: fetchTransport(fetch) });
    assertMatch(
      String(await viaFetch.request(`http://127.0.0.1:${big.port}/`).then(() => null, (e) => e)),
      /1024/,
    );
    // the default cap: 64 KiB
    assertMatch(
      String(await o.request(`http://127.0.0.1:${big.port}/`).then(() => null, (e) => e)),
      /65536 bytes/,
    );
  } finally {
    release();
    await slow.close();
    await big.close();
  }
});

/**
 * A private CA and a certificate it signed for hooks.test (with its key): trusted only where a test
 * passes the CA (rustls refuses a self-signed CA certificate used as the server's own).
 */
const HOOKS_TEST_CA = `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIUYWgAqjvPnDo2r4EBtV+zm4SFDu0wCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPU2FtcGxleCB0ZXN0IENBMCAXDTI2MTEyNjE0MTQ0OFoYDzIx
MjYxMTAyMTQxNDQ4WjAaMRgwFgYDVQQDDA9TYW1wbGV4IHRlc3QgQ0EwWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAATAUXUscyce8q60kPcYljGL1YumUQDbWxz0kYlv
KNKBzu1kVmnh2vGI1149UX/hILtpdqVkouD1tgS6If/koIm3o2MwYTAdBgNVHQ4E
FgQU81S5P/knqqIxkqYl12x6sjzMYZkwHwYDVR0jBBgwFoAU81S5P/knqqIxkqYl
12x6sjzMYZkwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAgQwCgYIKoZI
zj0EAwIDSAAwRQIgLXs7q3FiTpkEtnWxxaDPskaB9LnHJyj891B56B5JaFoCIQDt
nV8aXPyMRiM3byitxoS5SJEMNJxVyF3jybPkhgcarA==
-----END CERTIFICATE-----
`;
const HOOKS_TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBvzCCAWSgAwIBAgIURD9PjC4ACh9nvbkAUDkDpwWoD9EwCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPU2FtcGxleCB0ZXN0IENBMCAXDTI2MTEyNjE0MTQ0OFoYDzIx
MjYxMTAyMTQxNDQ4WjAVMRMwEQYDVQQDDApob29rcy50ZXN0MFkwEwYHKoZIzj0C
AQYIKoZIzj0DAQcDQgAEUmk4dcQh47rT0tbHh8m+g6HA/DAGMQAHQu0TZ3kEYBsX
tLYIQFd9SPu8Lq++kt9jT5KDryIfdJfRDzoNfCGWLaOBijCBhzAJBgNVHRMEAjAA
MBUGA1UdEQQOMAyCCmhvb2tzLnRlc3QwDgYDVR0PAQH/BAQDAgeAMBMGA1UdJQQM
MAoGCCsGAQUFBwMBMB0GA1UdDgQWBBSFI3Ap/GS2bwDzsmZt1w/m/+1AiDAfBgNV
HSMEGDAWgBTzVLk/+SeqojGSpiXXbHqyPMxhmTAKBggqhkjOPQQDAgNJADBGAiEA
rCR8tDnLTpfwAmd+5qZ1hO2aLNHfDt4jsgwFJfPPAxsCIQD8HH/n50iE7CG65XNe
swASA7EkJIAxWD6mdl5cEZmNfw==
-----END CERTIFICATE-----
`;
const HOOKS_TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgOi31I4UNrsi5pjJL
16tcnuAh3lXH94MNnB2swb3LN5ehRANCAARSaTh1xCHjutPS1seHyb6DocD8MAYx
AAdC7RNneQRgGxe0tghAV31I+7wur76S32NPkoOvIh90l9EPOg18IZYt
-----END PRIVATE KEY-----
`;

Deno.test("outbound: https to the pinned address still verifies the certificate against the name (SNI and Host carry it)", async () => {
  const hosts: (string | null)[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert: HOOKS_TEST_CERT, key: HOOKS_TEST_KEY, onListen() {} },
    (req) => (hosts.push(req.headers.get("host")), new Response("tls ok")),
  );
  const port = server.addr.port;
  try {
    const o = clientWith({ OUTBOUND_ALLOW: "hooks.test, other.test" }, () => Promise.resolve(["127.0.0.1"]));
    const trusted = o.with({ caCerts: [HOOKS_TEST_CA] });
    const res = await trusted.request(`https://hooks.test:${port}/hook`);
    assertEquals([res.status, new TextDecoder().decode(res.body)], [200, "tls ok"]);
    assertEquals(hosts, [`hooks.test:${port}`]);
    // the same address under another name: the certificate does not name it
    assertMatch(
      String(await trusted.request(`https://other.test:${port}/`).then(() => null, (e) => e)),
      /other\.test/,
    );
    // the system's trust alone: a self-signed certificate is refused
    assertMatch(
      String(await o.request(`https://hooks.test:${port}/`).then(() => null, (e) => e)),
      /UnknownIssuer|self-signed|certificate/i,
    );
    assertEquals(hosts.length, 1);
  } finally {
    await server.shutdown();
  }
});
