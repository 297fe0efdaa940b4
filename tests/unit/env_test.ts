/** server/env.ts: defaults, and a clear message for each wrong variable, all listed at once. */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { EnvError, loadEnv } from "../../server/env.ts";
import { frontLimits, guarded } from "../../server/http-front.ts";

function problems(source: Record<string, string>): string[] {
  try {
    loadEnv(source);
  } catch (e) {
    assert(e instanceof EnvError, `an EnvError, got ${e}`);
    const [head, ...lines] = e.message.split("\n");
    assertEquals(head, "Invalid environment:");
    return lines.map((l) => l.replace(/^\s+-\s+/, ""));
  }
  throw new Error(`expected ${JSON.stringify(source)} to be refused`);
}

Deno.test("env: defaults for an empty environment", () => {
  const env = loadEnv({});
  assertEquals(env.DATABASE_URL, "file:data/samplex.db");
  assertEquals(env.PORT, 8000);
  assertEquals(env.HOST, "0.0.0.0");
  assertEquals(env.DENO_ENV, "development");
  assertEquals(env.SEED, "demo");
  assertEquals(env.LOG_LEVEL, "info");
  assertEquals(env.JWT_SECRET, undefined);
  assertEquals(env.SMTP_URL, undefined);
});

Deno.test("env: empty strings count as unset", () => {
  const env = loadEnv({ PORT: "", DATABASE_URL: "", SEED: "" });
  assertEquals([env.PORT, env.DATABASE_URL, env.SEED], [8000, "file:data/samplex.db", "demo"]);
});

Deno.test("env: accepted values are parsed", () => {
  const env = loadEnv({
    PORT: "9090",
    DATABASE_URL: "libsql://samplex-acme.turso.io",
    DATABASE_AUTH_TOKEN: "tok",
    DENO_ENV: "production",
    JWT_SECRET: "s".repeat(32),
    SEED: "none",
    PUBLIC_URL: "https://go.samplex.example",
    SMTP_URL: "smtp://u:p@mail.example:587",
    PROVIDER_TOLUNA_URL: "https://toluna.example/api",
  });
  assertEquals(env.PORT, 9090);
  assertEquals(env.DATABASE_URL, "libsql://samplex-acme.turso.io");
  for (const url of [":memory:", "file:/data/samplex.db", "http://127.0.0.1:8080", "https://db.example"]) {
    assertEquals(loadEnv({ DATABASE_URL: url }).DATABASE_URL, url);
  }
});

Deno.test("env: a bad PORT says what a port is", () => {
  for (const port of ["abc", "0", "65536", "-1", "80.5", "8000x"]) {
    assertEquals(problems({ PORT: port }), ["PORT must be a number from 1 to 65535"], `PORT=${port}`);
  }
});

Deno.test("env: JWT_SECRET is required in production, and must be long enough anywhere", () => {
  assertEquals(problems({ DENO_ENV: "production" }), [
    "JWT_SECRET is required when DENO_ENV=production (at least 32 characters)",
  ]);
  assertEquals(problems({ DENO_ENV: "production", JWT_SECRET: "short" }), [
    "JWT_SECRET must be at least 32 characters",
  ]);
  assertEquals(problems({ JWT_SECRET: "short" }), ["JWT_SECRET must be at least 32 characters"]);
  assertEquals(
    loadEnv({ DENO_ENV: "development" }).JWT_SECRET,
    undefined,
    "generated and kept in development",
  );
});

Deno.test("env: a bad DATABASE_URL lists the accepted forms", () => {
  for (const url of ["postgres://db/samplex", "samplex.db", "mysql://x", "data/samplex.db"]) {
    assertEquals(problems({ DATABASE_URL: url }), [
      "DATABASE_URL must be file:PATH, :memory:, libsql://HOST or http(s)://HOST",
    ], url);
  }
});

Deno.test("env: every problem is listed at once, each naming its variable", () => {
  const list = problems({
    PORT: "nope",
    DATABASE_URL: "oracle://x",
    DENO_ENV: "production",
    SEED: "lots",
    SMTP_URL: "mail.example",
    PUBLIC_URL: "go.samplex.example",
    PROVIDER_LOGIT_URL: "ftp://logit",
    LOG_LEVEL: "loud",
    DENO_ENV_TYPO: "ignored",
  });
  assertEquals(list.length, 8, list.join("\n"));
  for (
    const name of [
      "PORT",
      "DATABASE_URL",
      "JWT_SECRET",
      "SEED",
      "SMTP_URL",
      "PUBLIC_URL",
      "PROVIDER_LOGIT_URL",
      "LOG_LEVEL",
    ]
  ) {
    assert(list.some((l) => l.startsWith(name)), `${name} is named: ${list.join(" | ")}`);
  }
  assertMatch(problems({ DENO_ENV: "staging" })[0], /^DENO_ENV must be production, development or test$/);
  assertEquals(problems({ LOG_LEVEL: "loud" }), ["LOG_LEVEL must be debug, info, warn, error or silent"]);
});

Deno.test("env: forwarding and edge headers are trusted only when set", () => {
  const env = loadEnv({});
  assertEquals(env.TRUST_PROXY_HOPS, 0, "no proxy trusted: the socket address is the client");
  assertEquals([env.CLIENT_IP_HEADER, env.COUNTRY_HEADER, env.CITY_HEADER], [
    undefined,
    undefined,
    undefined,
  ]);
  const set = loadEnv({
    TRUST_PROXY_HOPS: "2",
    CLIENT_IP_HEADER: "CF-Connecting-IP",
    COUNTRY_HEADER: "cf-ipcountry",
    CITY_HEADER: "cf-ipcity",
  });
  assertEquals(
    [set.TRUST_PROXY_HOPS, set.CLIENT_IP_HEADER, set.COUNTRY_HEADER, set.CITY_HEADER],
    [2, "cf-connecting-ip", "cf-ipcountry", "cf-ipcity"],
  );
  for (const hops of ["-1", "one", "1.5", "100"]) {
    assertEquals(problems({ TRUST_PROXY_HOPS: hops }), [
      "TRUST_PROXY_HOPS must be a whole number from 0 to 99",
    ], hops);
  }
  assertEquals(problems({ COUNTRY_HEADER: "cf ipcountry" }), [
    "COUNTRY_HEADER must be an HTTP header name, like cf-ipcountry",
  ]);
  assertEquals(problems({ CLIENT_IP_HEADER: "x:ip" }), [
    "CLIENT_IP_HEADER must be an HTTP header name, like cf-ipcountry",
  ]);
});

Deno.test("env: the slow-client bounds: defaults in milliseconds, wrong values named, and the per-address cap and the guard itself off behind a proxy", () => {
  const env = loadEnv({});
  assertEquals(
    [env.HTTP_GUARD, env.HTTP_HEADERS_TIMEOUT, env.HTTP_REQUEST_TIMEOUT, env.HTTP_IDLE_TIMEOUT],
    ["auto", 15_000, 300_000, 10_000],
  );
  assertEquals(env.HTTP_MAX_CONNECTIONS_PER_IP, 256);
  assertEquals(loadEnv({ HTTP_IDLE_TIMEOUT: "2.5" }).HTTP_IDLE_TIMEOUT, 2_500);
  assertEquals(
    problems({ HTTP_GUARD: "maybe", HTTP_HEADERS_TIMEOUT: "0", HTTP_MAX_CONNECTIONS_PER_IP: "-1" }),
    [
      "HTTP_GUARD must be auto, on or off",
      "HTTP_HEADERS_TIMEOUT must be a number of seconds from 0.1 to 3600",
      "HTTP_MAX_CONNECTIONS_PER_IP must be a whole number (0: no cap)",
    ],
  );
  assertEquals(problems({ HTTP_HEADERS_TIMEOUT: "30", HTTP_REQUEST_TIMEOUT: "20" }), [
    "HTTP_REQUEST_TIMEOUT must be at least HTTP_HEADERS_TIMEOUT (it covers the headers too)",
  ]);
  assertEquals(frontLimits(loadEnv({})).perAddress, 256);
  assertEquals(frontLimits(loadEnv({ TRUST_PROXY_HOPS: "1" })).perAddress, 0);
  assertEquals(frontLimits(loadEnv({ CLIENT_IP_HEADER: "cf-connecting-ip" })).perAddress, 0);
  // auto: the guard serves direct clients; a trusted proxy bounds its own (Deno.serve behind it)
  assertEquals(guarded(loadEnv({})), true);
  assertEquals(guarded(loadEnv({ TRUST_PROXY_HOPS: "1" })), false);
  assertEquals(guarded(loadEnv({ CLIENT_IP_HEADER: "cf-connecting-ip" })), false);
  assertEquals(guarded(loadEnv({ TRUST_PROXY_HOPS: "1", HTTP_GUARD: "on" })), true);
  assertEquals(guarded(loadEnv({ HTTP_GUARD: "off" })), false);
});
