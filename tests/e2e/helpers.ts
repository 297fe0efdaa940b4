/**
 * Browser e2e kit: the real app (API + built SPA) on a free loopback port over a migrated
 * in-memory database, and Debian's chromium driven by playwright-core (never a downloaded browser).
 * Without chromium the tests are skipped with a loud message, or fail when CI=true.
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

export const CHROMIUM_PATH = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
export const E2E_PASSWORD = "Passw0rd!e2e";
const IS_CI = Deno.env.get("CI") === "true";

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
      await fn(t);
    },
  };
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

/** The real server, in-process, with the built SPA: `createApp(deps, { webRoot })`. */
export async function startServer(): Promise<E2eServer> {
  const webRoot = await ensureWebBuild();
  const env = loadEnv({
    DATABASE_URL: ":memory:",
    SEED: "none",
    LOG_LEVEL: "silent",
    JWT_SECRET: "e2e-secret-e2e-secret-e2e-secret-42",
    DENO_ENV: "test",
  });
  const { deps, handle } = await buildDeps(env);
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
      const u = await createUser(deps.db, SYSTEM_ACTOR, {
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
      await handle.close();
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** A fresh browser context (own storage) with a page at 1280x800 that records page errors. */
export async function newPage(
  browser: Browser,
  baseURL: string,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

/** Signs in through the login form and waits until the app has left /login. */
export async function signIn(page: Page, email: string, password = E2E_PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}

export const pathOf = (page: Page) => new URL(page.url()).pathname;
