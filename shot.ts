import { chromium } from "playwright-core";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
const page = await browser.newPage({ viewport: { width: 1366, height: 860 } });
const base = "http://localhost:8130";
await page.goto(base + "/login");
await page.getByLabel("Email address").fill("superadmin@samplex.demo");
await page.getByLabel("Password", { exact: true }).fill("Samplex@2026");
await page.getByRole("button", { name: "Login" }).click();
await page.waitForURL("**/admin/dashboard");
for (const [name, path] of Deno.args.map((a) => [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)])) {
  await page.goto(base + path);
  await page.waitForTimeout(2500);
  await page.screenshot({ path: `/tmp/shot-${name}.png` });
}
await browser.close();
