/**
 * The request an API-integrated client's fields describe (server/domain/router/client-api.ts), and
 * how the link and the client's identifier are read from its answer: the rules the client form's
 * help states (shared/client-api.ts).
 */
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import {
  atPath,
  clientApiRequest,
  clientApiValues,
  identifierOf,
  requestClientLink,
} from "../../server/domain/router/client-api.ts";
import type { ClientApi } from "../../server/domain/router/config.ts";
import { Outbound } from "../../server/domain/common/outbound/client.ts";
import { EMPTY_POLICY } from "../../server/domain/common/outbound/policy.ts";

const api = (fields: Partial<ClientApi>): ClientApi => ({
  clientId: "c1",
  apiUrl: "https://api.client.example/links",
  apiKey: "",
  apiHeader: "",
  apiFunctionHeader: "",
  apiFunction: "",
  apiParams: "",
  apiBody: "",
  apiResponseVar: "",
  variableMapping: "",
  identifierMapping: "",
  ...fields,
});
const VARS = { uid: "u".repeat(24), sid: "panelist 1&2", pid: "P1001" };
const request = (fields: Partial<ClientApi>) => {
  const a = api(fields);
  return clientApiRequest(a, clientApiValues(a, VARS));
};

Deno.test("client API request: a key with no header naming it goes as Authorization Bearer; GET without a body", () => {
  const r = request({ apiKey: "k1" });
  assertEquals([r.method, r.url, r.body], ["GET", "https://api.client.example/links", undefined]);
  assertEquals(r.headers, { accept: "application/json", authorization: "Bearer k1" });
  // a key that carries its own scheme is sent as it is
  assertEquals(
    request({ apiKey: "Token abc", apiHeader: "Authorization" }).headers.authorization,
    "Token abc",
  );
});

Deno.test("client API request: header lines or a JSON object of headers, [apiKey] standing for the key", () => {
  const lines = request({ apiKey: "k2", apiHeader: "X-Tenant: acme\nX-Auth: key=[apiKey]" });
  assertEquals(lines.headers["x-tenant"], "acme");
  assertEquals(lines.headers["x-auth"], "key=k2");
  assertEquals(lines.headers.authorization, undefined, "the block placed the key: no Bearer besides");
  const json = request({ apiKey: "k3", apiHeader: '{"Accept": "application/vnd.client+json"}' });
  assertEquals(json.headers.accept, "application/vnd.client+json");
  assertEquals(json.headers.authorization, "Bearer k3", "a block that does not place the key: Bearer");
});

Deno.test("client API request: a method in API function; a function name goes in its header, POST with a body", () => {
  assertEquals(request({ apiFunction: "put", apiBody: "{}" }).method, "PUT");
  const fn = request({ apiFunction: "getLink" });
  assertEquals([fn.method, fn.headers["x-api-function"]], ["GET", "getLink"]);
  const block = request({
    apiFunction: "getLink",
    apiFunctionHeader: "X-Op: call.[function]",
    apiBody: '{"who": "[sid]"}',
  });
  assertEquals([block.method, block.headers["x-op"], block.body], [
    "POST",
    "call.getLink",
    '{"who":"panelist 1&2"}',
  ]);
});

Deno.test("client API request: variables in the URL (encoded), parameters and body (plain); mapped names sent unless placed", () => {
  const r = request({
    apiUrl: "https://api.client.example/p/[pid]/r?panel=[sid]",
    apiParams: "a=1&ref=[ref]\nb=[uid]",
    apiBody: '{"n": ["[src]", 3, true, null]}',
    variableMapping: "ref=[uid]\nsrc=[sid]\nproject=pid-[pid]",
  });
  const url = new URL(r.url);
  assertEquals(url.pathname, "/p/P1001/r");
  assertEquals(url.searchParams.get("panel"), "panelist 1&2");
  assertEquals([url.searchParams.get("a"), url.searchParams.get("ref"), url.searchParams.get("b")], [
    "1",
    VARS.uid,
    VARS.uid,
  ]);
  assertEquals(url.searchParams.get("project"), "pid-P1001", "not placed by any template: a parameter");
  assertEquals(url.searchParams.has("src"), false, "placed in the body: not sent again");
  assertEquals(JSON.parse(r.body!), { n: ["panelist 1&2", 3, true, null] });
});

Deno.test("client API request: broken fields are reasons, not exceptions the router would turn into a 500", async () => {
  const outbound = new Outbound(EMPTY_POLICY);
  const cases: [Partial<ClientApi>, RegExp][] = [
    [{ apiUrl: "" }, /API URL is blank/],
    [{ apiUrl: "not a url" }, /not a valid URL/],
    [{ apiBody: "{oops" }, /body is not JSON/],
    [{ apiParams: "novalue" }, /API parameters/],
    [{ variableMapping: "bad name=[uid]" }, /Variable mapping/],
    [{ apiHeader: "Bad Header: x\nOther: y" }, /API header/],
    [{ apiUrl: "ftp://files.client.example/x" }, /client's API: Refused/],
  ];
  // twice each: a field read again (its parse kept) is refused again the same way
  for (const [fields, why] of [...cases, ...cases]) {
    const r = await requestClientLink(outbound, api(fields), VARS);
    assertEquals(r.ok, false, why.source);
    if (!r.ok) assertMatch(r.error, why);
  }
});

Deno.test("client API answer: dot paths and the identifier mapping", () => {
  const answer = { data: { links: [{ url: "https://s.example/1" }], id: 42 } };
  assertEquals(atPath(answer, "data.links.0.url"), "https://s.example/1");
  assertEquals(atPath(answer, "$.data.id"), 42);
  assertEquals(atPath(answer, "data.missing.deeper"), undefined);
  assertEquals(identifierOf(api({ identifierMapping: "token=data.id" })), {
    param: "token",
    source: "data.id",
  });
  assertEquals(identifierOf(api({ identifierMapping: "[sid]" })), { param: "uid", source: "[sid]" });
  assertEquals(identifierOf(api({})), null);
});
