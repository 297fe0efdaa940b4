/**
 * The request of a supplier callback from the supplier's API fields (server/domain/router/
 * callback-request.ts): the variable mapping both ways round, the auth header forms, the body
 * template's escaping, and the headers a supplier may not replace.
 */
import { assertEquals } from "../helpers/assert.ts";
import { authHeaders, buildCallback, signWithNode } from "../../server/domain/router/callback-request.ts";
import { signCallback, verifyCallbackSignature } from "../../shared/callbacks.ts";

Deno.test("callback variable mapping: name=[variable] per line (a client's convention), the supplier's names filled in the URL and body; a bad line is an error", async () => {
  const supplier = {
    hashKey: "s3cret",
    apiHeader: "",
    apiKey: "",
    apiBody: `{"m":"[member_id]","x":"[ext]"}`,
    variableMapping: "member_id=[sid]\next=P-[pid]",
  };
  const vars = { sid: "abc", uid: "u1", pid: "P1", status: "c", key: "u1-c" };
  const r = await buildCallback(supplier, {
    url: "https://p.example/cb?m=[member_id]",
    vars,
    event: "complete",
    key: "u1-c",
  }, 0);
  assertEquals(r.url, "https://p.example/cb?m=abc");
  assertEquals(JSON.parse(r.body!), { m: "abc", x: "P-P1" });
  let error = "";
  try {
    await buildCallback({ ...supplier, variableMapping: "not a pair" }, {
      url: "https://p.example/",
      vars,
      event: "complete",
      key: "k",
    }, 0);
  } catch (e) {
    error = String(e);
  }
  assertEquals(error.includes("Variable mapping"), true, error);
});

Deno.test("callback auth headers: a header name, whole lines or JSON with [apiKey]; reserved names and line breaks refused", () => {
  assertEquals(authHeaders({ apiHeader: "", apiKey: "" }), {});
  assertEquals(authHeaders({ apiHeader: "", apiKey: "k1" }), { Authorization: "Bearer k1" });
  assertEquals(authHeaders({ apiHeader: "X-Api-Key", apiKey: "k1" }), { "X-Api-Key": "k1" });
  assertEquals(authHeaders({ apiHeader: "Authorization", apiKey: "k1" }), { Authorization: "Bearer k1" });
  assertEquals(
    authHeaders({ apiHeader: "Accept: application/json", apiKey: "k1" }),
    { Accept: "application/json", Authorization: "Bearer k1" },
    "a key no header carries goes as Authorization: Bearer",
  );
  assertEquals(
    authHeaders({ apiHeader: "Authorization: Token [apiKey]\nX-Panel: 7", apiKey: "k1" }),
    { Authorization: "Token k1", "X-Panel": "7" },
  );
  assertEquals(
    authHeaders({ apiHeader: `{"Accept": "application/json", "X-Key": "{apiKey}"}`, apiKey: "k1" }),
    { Accept: "application/json", "X-Key": "k1" },
  );
  assertEquals(
    authHeaders({
      apiHeader: "Idempotency-Key: forged\nX-Samplex-Signature: forged\nHost: evil\nBad Name: x",
      apiKey: "",
    }),
    {},
  );
});

Deno.test("callback request: GET without a body template; POST with the template filled (JSON-escaped) and signed", async () => {
  const supplier = { hashKey: "s3cret", apiHeader: "", apiKey: "", apiBody: "", variableMapping: "m=[sid]" };
  const vars = { sid: 'a"b\\c', uid: "u1", pid: "P1", status: "c", key: "u1-c" };
  const get = await buildCallback(supplier, {
    url: "https://p.example/cb?m=[m]&s=[sid]",
    vars,
    event: "complete",
    key: "u1-c",
  }, 1_700_000_000_000);
  assertEquals(get.method, "GET");
  assertEquals(get.body, undefined);
  assertEquals(
    get.url,
    `https://p.example/cb?m=${encodeURIComponent(vars.sid)}&s=${encodeURIComponent(vars.sid)}`,
  );
  assertEquals(get.headers["Idempotency-Key"], "u1-c");
  assertEquals(get.headers["X-Samplex-Event"], "complete");

  const post = await buildCallback(
    { ...supplier, apiBody: `{"member":"[m]","event":"[event]","unknown":"[nope]"}` },
    { url: "https://p.example/cb", vars, event: "complete", key: "u1-c" },
    1_700_000_000_000,
  );
  assertEquals(post.method, "POST");
  assertEquals(JSON.parse(post.body!), { member: vars.sid, event: "complete", unknown: "[nope]" });
  assertEquals(post.headers["Content-Type"], "application/json");
  const check = await verifyCallbackSignature(
    "s3cret",
    { method: post.method, url: post.url, headers: post.headers, body: post.body! },
    { now: 1_700_000_010_000 },
  );
  assertEquals(check, { ok: true, ts: 1_700_000_000, key: "u1-c" });
});

Deno.test("callback signature: the sender's node:crypto signer gives what the shared Web Crypto recipe gives, byte for byte", async () => {
  for (
    const x of [
      { ts: 1_790_000_000, method: "GET", url: "https://p.example/cb?uid=u1&s=c", key: "u1-c", body: "" },
      { ts: 1_790_000_123, method: "post", url: "https://p.example/a/b", key: "k-ü", body: `{"m":"é\\n1"}` },
    ]
  ) {
    assertEquals(signWithNode("s3cret-ключ", x), await signCallback("s3cret-ключ", x));
    // keys of a block (64 bytes) and longer ones (hashed first), and the same key again (its pads kept)
    for (const key of ["k".repeat(63), "k".repeat(64), "k".repeat(65), "é".repeat(40), "s3cret-ключ"]) {
      assertEquals(signWithNode(key, x), await signCallback(key, x), `a key of ${key.length} characters`);
    }
  }
  let error = "";
  try {
    signWithNode("", { ts: 1, method: "GET", url: "https://p.example/", key: "k", body: "" });
  } catch (e) {
    error = (e as Error).message;
  }
  assertEquals(error, "a callback is never sent unsigned: the supplier has no hash key");
});
