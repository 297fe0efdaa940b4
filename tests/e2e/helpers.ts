/**
 * Browser e2e kit: the real app (API + built SPA) on a free loopback port over a migrated
 * in-memory database, and Debian's chromium driven by playwright-core (never a downloaded browser).
 * Without chromium the tests are skipped with a loud message, or fail when CI=true.
 *
 * Nothing here can hang: every page has default timeouts (actions and locator waits
 * ACTION_TIMEOUT_MS, navigation NAVIGATION_TIMEOUT_MS), the async clipboard's reads give up after
 * CLIPBOARD_TIMEOUT_MS, and e2e() bounds each step (STEP_TIMEOUT_MS) and the whole test
 * (TEST_TIMEOUT_MS), closing the browsers when a bound is hit so whatever waited fails at once.
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { loadEnv } from "../../server/env.ts";
import { buildDeps } from "../../server/boot.ts";
import { createApp } from "../../server/app.ts";
import { ensureWebBuild } from "../../server/web-build.ts";
import { createUser, type PublicUser } from "../../server/domain/users/users.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import type { Deps } from "../../server/deps.ts";
import type { Role } from "../../shared/roles.ts";
import { wallClock } from "../../server/domain/common/clock.ts";
import { callOver, httpTestApp, type TestApp } from "../helpers/app.ts";
import { loginCall } from "../../shared/api/session.ts";

export const CHROMIUM_PATH = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
export const E2E_PASSWORD = "Passw0rd!e2e";
const IS_CI = Deno.env.get("CI") === "true";

function msFromEnv(name: string, fallback: number): number {
  const n = Number(Deno.env.get(name));
  return Number.isFinite(n) && n > 0 ? n : fallback;
}
/** Clicks, fills and locator waits (`waitFor`, `waitForEvent`...) give up after this. */
export const ACTION_TIMEOUT_MS = msFromEnv("E2E_ACTION_TIMEOUT_MS", 10_000);
/** goto, reload, waitForURL. */
export const NAVIGATION_TIMEOUT_MS = msFromEnv("E2E_NAVIGATION_TIMEOUT_MS", 15_000);
/** navigator.clipboard.readText() in a test page (headless chromium has been seen never to answer). */
export const CLIPBOARD_TIMEOUT_MS = 3_000;
/** One t.step of an e2e test. */
export const STEP_TIMEOUT_MS = msFromEnv("E2E_STEP_TIMEOUT_MS", 60_000);
/** A whole e2e test, steps included. */
export const TEST_TIMEOUT_MS = msFromEnv("E2E_TEST_TIMEOUT_MS", 240_000);

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function chromiumPresent(): boolean {
  try {
    return Deno.statSync(CHROMIUM_PATH).isFile;
  } catch {
    return false;
  }
}

export const hasChromium = chromiumPresent();
let warned = false;

/**
 * Options for an e2e Deno.test: ignored (with a loud notice) when chromium is missing, unless CI
 * is set, in which case the test runs and fails with the reason.
 */
export function e2e(name: string, fn: (t: Deno.TestContext) => Promise<void>): Deno.TestDefinition {
  const skip = !hasChromium && !IS_CI;
  if (skip && !warned) {
    warned = true;
    console.warn(
      `\n!!! Browser e2e tests SKIPPED: chromium not found at ${CHROMIUM_PATH}. ` +
        `Install it (apt-get install -y chromium) or set CHROMIUM_PATH. With CI=true they fail instead.\n`,
    );
  }
  return {
    name,
    ignore: skip,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async (t) => {
      if (!hasChromium) {
        throw new Error(`chromium is required for e2e tests (CI=true) but was not found at ${CHROMIUM_PATH}`);
      }
      await bounded(`e2e test "${name}"`, TEST_TIMEOUT_MS, () => fn(boundedSteps(t)));
    },
  };
}

/** Browsers launched by launchBrowser() and not yet closed: closed when a bound is hit. */
const openBrowsers = new Set<Browser>();

async function closeOpenBrowsers() {
  await Promise.allSettled([...openBrowsers].map((b) => b.close()));
}

/**
 * Runs `run`, failing with a clear error after `ms`. On timeout the open browsers are closed, so the
 * awaited playwright call rejects and the test's own `finally` (server and browser close) runs;
 * that gets a few seconds, then the timeout error is thrown regardless.
 */
export async function bounded<T>(
  what: string,
  ms: number,
  run: () => Promise<T>,
  onTimeout: () => Promise<void> = closeOpenBrowsers,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const work = run();
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), ms)));
  try {
    const first = await Promise.race([work.then((v) => ({ v })), late]);
    if (first !== "late") return first.v;
  } finally {
    clearTimeout(timer);
  }
  await onTimeout();
  let settle: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    work.catch(() => {}),
    new Promise((r) => (settle = setTimeout(r, 5_000))),
  ]);
  clearTimeout(settle);
  throw new Error(`${what} did not finish within ${Math.round(ms / 1000)} s (timed out)`);
}

/** The test context with each t.step(name, fn) bounded by STEP_TIMEOUT_MS (sub-steps too). */
export function boundedSteps(t: Deno.TestContext): Deno.TestContext {
  const step = (
    nameOrDef: string | Deno.TestStepDefinition,
    fn?: (t: Deno.TestContext) => void | Promise<void>,
  ) => {
    const def: Deno.TestStepDefinition = typeof nameOrDef === "string"
      ? { name: nameOrDef, fn: fn! }
      : nameOrDef;
    return t.step({
      ...def,
      fn: (st) => bounded(`step "${def.name}"`, STEP_TIMEOUT_MS, async () => await def.fn(boundedSteps(st))),
    });
  };
  return { name: t.name, origin: t.origin, parent: t.parent, step } as Deno.TestContext;
}

export type E2eServer = {
  url: string;
  deps: Deps;
  /** Creates a user (or returns the existing one of that e-mail) with E2E_PASSWORD. */
  user: (
    role: Role,
    extra?: { email?: string; firstName?: string; lastName?: string; supplierId?: string | null },
  ) => Promise<PublicUser>;
  close: () => Promise<void>;
};

/**
 * The real server, in-process, with the built SPA: `createApp(deps, { webRoot })`. `env` adds or
 * overrides variables (SMTP_URL pointing at a loopback mail server, say).
 */
export async function startServer(env: Record<string, string> = {}): Promise<E2eServer> {
  const webRoot = await ensureWebBuild();
  const parsed = loadEnv({
    DATABASE_URL: ":memory:",
    SEED: "none",
    LOG_LEVEL: "silent",
    JWT_SECRET: "e2e-secret-e2e-secret-e2e-secret-42",
    DENO_ENV: "test",
    ...env,
  });
  const { deps, handle } = await buildDeps(parsed);
  const app = createApp(deps, { webRoot });
  const ac = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", signal: ac.signal, onListen: () => {} },
    (req, info) => app.fetch(req, { remoteAddr: info.remoteAddr }),
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  const created = new Map<string, PublicUser>();

  return {
    url,
    deps,
    async user(role, extra = {}) {
      const email = extra.email ?? `${role.toLowerCase()}@e2e.test`;
      const known = created.get(email);
      if (known) return known;
      const u = await createUser({ db: deps.db, actor: SYSTEM_ACTOR, now: wallClock }, {
        firstName: extra.firstName ?? `E2e${role[0]}${role.slice(1).toLowerCase()}`,
        lastName: extra.lastName ?? "Tester",
        email,
        phoneNumber: "",
        role,
        supplierId: extra.supplierId ?? (role === "SUPPLIER" ? "000000000000000000000001" : null),
        password: E2E_PASSWORD,
        isActive: true,
      });
      created.set(email, u);
      return u;
    },
    async close() {
      ac.abort();
      await server.finished;
      await deps.services.close();
      await handle.close();
    },
  };
}

/**
 * The API tests' helpers (fixtures, router helpers) over HTTP to this server: the same typed calls,
 * signed in as the server's own users of each role.
 */
export function apiOf(server: E2eServer): TestApp {
  const call = callOver((path, init) => fetch(`${server.url}${path}`, init));
  return httpTestApp(server.url, server.deps, async (role: Role) => {
    const u = await server.user(role);
    const r = await call(loginCall.method, loginCall.path, {
      body: { email: u.email, password: E2E_PASSWORD },
    });
    if (r.status !== 200) throw new Error(`login as ${role} failed: ${r.text}`);
    return { id: u._id, token: r.json.result.accessToken as string, email: u.email };
  });
}

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
    timeout: NAVIGATION_TIMEOUT_MS,
  });
  openBrowsers.add(browser);
  browser.on("disconnected", () => openBrowsers.delete(browser));
  return browser;
}

/**
 * Bounds navigator.clipboard.readText() in every page of a context: it rejects after `ms` instead of
 * staying pending (page.evaluate has no timeout of its own). The clipboard's own method is looked
 * up at each call.
 */
async function boundClipboardReads(context: BrowserContext, ms: number) {
  await context.addInitScript((ms: number) => {
    const clip = globalThis.navigator?.clipboard;
    if (!clip) return;
    clip.readText = () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      return Promise.race([
        Clipboard.prototype.readText.call(clip),
        new Promise<string>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`navigator.clipboard.readText() did not answer within ${ms} ms`)),
            ms,
          );
        }),
      ]).finally(() => clearTimeout(timer));
    };
  }, ms);
}

/** The text on the page's clipboard, or an error within CLIPBOARD_TIMEOUT_MS. */
export async function readClipboard(page: Page): Promise<string> {
  return await page.evaluate(() => navigator.clipboard.readText());
}

/**
 * A fresh browser context (own storage) with a page at 1280x800 that records page errors. Its
 * actions and waits time out after ACTION_TIMEOUT_MS, its navigations after NAVIGATION_TIMEOUT_MS.
 */
export async function newPage(
  browser: Browser,
  baseURL: string,
  /** More context options (the accessibility test injects axe-core past the CSP with `bypassCSP`). */
  extra: { bypassCSP?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
    ...extra,
  });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
  await boundClipboardReads(context, CLIPBOARD_TIMEOUT_MS);
  const page = await context.newPage();
  page.setDefaultTimeout(ACTION_TIMEOUT_MS);
  page.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

/** Signs in through the login form and waits until the app has left /login (else says what the page said). */
export async function signIn(page: Page, email: string, password = E2E_PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  try {
    await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  } catch (e) {
    const said = await page.locator("[role=alert], [role=status], [data-sonner-toast]").allTextContents()
      .catch(() => []);
    throw new Error(
      `sign-in of ${email} stayed on ${page.url()}; the page said: ${JSON.stringify(said)} (${
        e instanceof Error ? e.message.split("\n")[0] : e
      })`,
    );
  }
}

export const pathOf = (page: Page) => new URL(page.url()).pathname;
