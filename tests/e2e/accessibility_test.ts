/**
 * Accessibility, measured (issue 25, item 6): axe-core (the npm package, pinned in deno.json) runs in
 * chromium over 22 screens of the demo data, the sign-in page and the supplier portal at 375 px
 * included; no serious or critical violation may be left, nor a skipped heading level (heading-order,
 * moderate to axe, but what the add forms and the portal did). Each screen's violations are listed by
 * rule, impact and the elements' selectors, so a failure says what to fix in which component.
 */
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { assertEquals } from "../helpers/assert.ts";
import { seedDemo } from "../../server/seed/seed.ts";
import { e2e, launchBrowser, newPage, signIn, startServer } from "./helpers.ts";

const AXE_SOURCE = Deno.readTextFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"));

/** axe is injected as a script tag: the context lets it past the app's CSP (script-src 'self'). */
const AXE_CONTEXT = { bypassCSP: true };

type Violation = {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; html: string }[];
};

/** axe's serious and critical violations of the page as it stands, and skipped heading levels, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const axe = (globalThis as any).axe;
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations as Violation[];
  });
  const counted = (v: Violation) =>
    v.impact === "serious" || v.impact === "critical" || v.id === "heading-order";
  return violations.filter(counted).map((v) =>
    `${v.impact} ${v.id} (${v.help}): ${
      v.nodes.slice(0, 4).map((n) => `${n.target.join(" ")} ${n.html.slice(0, 160)}`).join(" | ")
    }`
  );
}

/** Opens a screen and waits until it has drawn its data (no request left, its heading shown). */
async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  await page.locator("h1").first().waitFor();
  await page.waitForFunction(() => !document.querySelector("[aria-busy=true], [data-loading=true]"));
}

const STAFF_SCREENS = [
  "/admin/dashboard",
  "/admin/project",
  "/admin/project/add",
  "/admin/project/fetch",
  "/admin/client",
  "/admin/client/add",
  "/admin/supplier",
  "/admin/supplier/add",
  "/admin/invoice",
  "/admin/invoice/list",
  "/admin/invoice/generate",
  "/admin/reconcile",
  "/admin/report",
  "/admin/library",
  "/admin/library/question/add",
  "/admin/support/log",
  "/admin/user",
  "/admin/user/add",
];

Deno.test(e2e("accessibility: no serious or critical axe-core violation on 22 screens", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    await seedDemo(server.deps);
    const found: Record<string, string[]> = {};
    const check = async (page: Page, name: string) => {
      const v = await seriousViolations(page);
      if (v.length) found[name] = v;
    };

    await t.step("sign-in page", async () => {
      const { context, page } = await newPage(browser, server.url, AXE_CONTEXT);
      await page.goto("/login");
      await page.getByRole("button", { name: /sign in|login/i }).first().waitFor();
      await check(page, "/login");
      await context.close();
    });

    await t.step("staff screens (Super Admin) and the API manager's provider tab", async () => {
      const { context, page } = await newPage(browser, server.url, AXE_CONTEXT);
      await signIn(page, (await server.user("SUPERADMIN")).email);
      for (const path of STAFF_SCREENS) {
        await open(page, path);
        await check(page, path);
      }
      await context.close();
      const api = await newPage(browser, server.url, AXE_CONTEXT);
      await signIn(api.page, (await server.user("APIMANAGER")).email);
      await open(api.page, "/admin/api");
      await check(api.page, "/admin/api");
      await api.context.close();
    });

    await t.step("the supplier portal at 375 px", async () => {
      // an active supplier: the demo has an inactive one, whose users cannot sign in, and which comes
      // first by id depends on when the seed ran
      const supplier = await server.deps.db.selectFrom("suppliers").select("id").where("isDeleted", "=", 0)
        .where("isActive", "=", 1).orderBy("id").executeTakeFirstOrThrow();
      const { context, page } = await newPage(browser, server.url, AXE_CONTEXT);
      await page.setViewportSize({ width: 375, height: 812 });
      await signIn(page, (await server.user("SUPPLIER", { supplierId: supplier.id })).email);
      for (const path of ["/supplier/project", "/supplier/inventory", "/supplier/api"]) {
        await open(page, path);
        await check(page, `${path} @375`);
      }
      await context.close();
    });

    assertEquals(found, {}, "serious or critical axe-core violations by screen");
  } finally {
    await browser.close();
    await server.close();
  }
}));
