import { launchBrowser, newPage, signIn, startServer } from "./helpers.ts";
const server = await startServer({ SEED: "demo" });
const browser = await launchBrowser();
const admin = await server.user("SUPERADMIN");
const { page } = await newPage(browser, server.url);
await page.setViewportSize({ width: 1440, height: 900 });
await signIn(page, admin.email);
const screens: [string, string[]][] = [
  ["/admin/invoice", ["Status"]],
  ["/admin/report", ["Expense"]],
  ["/admin/support/job", ["Soft", "Status"]],
  ["/admin/project/fetch", ["Qualifications", "End date", "Status"]],
  ["/admin/api", ["Qualifications", "End date"]],
  ["/admin/project", []],
  ["/admin/api/mrkt", ["Qualifications", "End date"]],
  ["/admin/api", ["Qualifications", "End date"]],
];
for (const [path, names] of screens) {
  await page.goto(path);
  await page.waitForTimeout(2500);
  const heads = await page.evaluate(() =>
    [...document.querySelectorAll("[data-testid=data-grid] th")].map((th) => `${th.textContent?.trim()}@${Math.round(th.getBoundingClientRect().right)}`)
  );
  console.log(path, names, heads.join(" | "));
  const tb = await page.evaluate(() => [...document.querySelectorAll("[role=toolbar] > *")].map((e) => Math.round(e.getBoundingClientRect().top)));
  console.log("  toolbar tops", tb.join(","));
}
await page.setViewportSize({ width: 1280, height: 800 });
await page.goto("/admin/project");
await page.waitForTimeout(1500);
console.log("1280 projects toolbar tops", await page.evaluate(() => [...document.querySelectorAll("[role=toolbar] > *, [role=toolbar] > div > *, [role=toolbar] > div > div > *, [role=toolbar] > div > div > div > *")].map((e) => `${e.textContent?.slice(0,15)}:${Math.round(e.getBoundingClientRect().top)}:x${Math.round(e.getBoundingClientRect().left)}w${Math.round(e.getBoundingClientRect().width)}`).join(" , ")));
const sup = (await server.deps.db.selectFrom("supplier_maps" as never).select("supplierId" as never).executeTakeFirst()) as { supplierId: string } | undefined;
console.log("supplier", sup);
if (sup) { const u = await server.user("SUPPLIER", { email: "s@e2e.test", supplierId: sup.supplierId }); const { page: p2 } = await newPage(browser, server.url); await p2.setViewportSize({ width: 1440, height: 900 }); await signIn(p2, u.email); await p2.waitForTimeout(2500); console.log("portal", await p2.evaluate(() => [...document.querySelectorAll("th")].map((th) => `${th.textContent?.trim()}@${Math.round(th.getBoundingClientRect().right)}`).join(" | "))); }
await browser.close();
await server.close();

