/** Support > API reference and Support > Backups, reached from the account menu, in the built SPA. */
import { assert, assertEquals } from "../helpers/assert.ts";
import { e2e, launchBrowser, newPage, pathOf, signIn, startServer } from "./helpers.ts";
import { runScheduledBackup } from "../../server/domain/ops/backup.ts";
import { createLogger } from "../../server/logger.ts";

Deno.test(e2e("operations: the API reference and the backups list, for their roles only", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-e2e-ops-" });
  const server = await startServer({
    DATABASE_URL: `file:${dir}/live.db`,
    BACKUP_DIR: `${dir}/backups`,
    BACKUP_EVERY_HOURS: "24",
  });
  const browser = await launchBrowser();
  try {
    const apiManager = await server.user("APIMANAGER");
    const accountant = await server.user("ACCOUNTANT");

    await t.step(
      "an API manager opens the API reference from the account menu and reads a call",
      async () => {
        const { context, page, errors } = await newPage(browser, server.url);
        await signIn(page, apiManager.email);
        await page.getByTestId("avatar-menu").click();
        assertEquals(await page.getByRole("menuitem", { name: "Backups" }).count(), 0);
        await page.getByRole("menuitem", { name: "API reference" }).click();
        await page.waitForURL("**/admin/support/api-reference");
        await page.getByRole("heading", { name: "Clients" }).waitFor();
        assert(Number((await page.getByTestId("call-count").textContent())?.split(" ")[0]) >= 50);
        await page.getByLabel("Search the calls").fill("/admin/client/add");
        const op = page.getByTestId("api-operation");
        assertEquals(await op.count(), 1);
        await op.getByRole("button").click();
        await op.getByText("Roles:", { exact: true }).waitFor();
        assert(await op.getByRole("cell", { name: "clientName", exact: true }).isVisible());
        assertEquals(errors, []);
        await context.close();
      },
    );

    await t.step("an accountant sees the backups with sizes, not the API reference", async () => {
      await runScheduledBackup(server.deps.db, `file:${dir}/live.db`, {
        dir: `${dir}/backups`,
        everyHours: 24,
        keep: 7,
      }, createLogger("silent"));
      const { context, page } = await newPage(browser, server.url);
      await signIn(page, accountant.email);
      await page.getByTestId("avatar-menu").click();
      assertEquals(await page.getByRole("menuitem", { name: "API reference" }).count(), 0);
      await page.getByRole("menuitem", { name: "Backups" }).click();
      await page.waitForURL("**/admin/support/backups");
      const table = page.getByTestId("backups-table");
      await table.waitFor();
      assertEquals(await table.locator("tbody tr").count(), 1);
      assert(/\d+(\.\d)? (KB|MB)/.test(await table.locator("tbody tr td").last().textContent() ?? ""));
      await page.goto("/admin/support/api-reference");
      await page.waitForURL("**/404");
      assertEquals(pathOf(page), "/404");
      await context.close();
    });
  } finally {
    await browser.close();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}));
