/** Reports in the browser: a tab shows its rows, and its Export downloads a CSV of exactly those rows. */
import { assert, assertEquals } from "../helpers/assert.ts";
import { newId } from "../../server/db/ids.ts";
import { addToRouterDaily } from "../../server/domain/router/rollup.ts";
import { PROJECT_STATUS, PROJECT_TYPE } from "../../shared/status.ts";
import * as v from "valibot";
import { clientBody, supplierBody } from "../helpers/master.ts";
import { ClientForm } from "../../shared/schemas/client.ts";
import { SupplierForm } from "../../shared/schemas/supplier.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { createClient } from "../../server/domain/clients/clients.ts";
import { createSupplier } from "../../server/domain/suppliers/suppliers.ts";
import { e2e, launchBrowser, newPage, signIn, startServer } from "./helpers.ts";
import { wallClock } from "../../server/domain/common/clock.ts";

/** A CSV line's cells (quoted cells unquoted). */
function cells(line: string): string[] {
  const out: string[] = [];
  const re = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
  for (let m = re.exec(line); m && m.index < line.length; m = re.exec(line)) {
    const c = m[1];
    out.push(c.startsWith('"') ? c.slice(1, -1).replace(/""/g, '"') : c);
    if (!m[2]) break;
  }
  return out;
}

Deno.test(
  e2e("reports: the Supplier tab shows its rows and downloads a CSV whose rows match them", async (t) => {
    const server = await startServer();
    const browser = await launchBrowser();
    const { db } = server.deps;
    try {
      const admin = await server.user("MANAGER", { firstName: "Ada", lastName: "Report" });
      const now = new Date().toISOString();
      const today = now.slice(0, 10);
      const client = await createClient(
        { db, actor: SYSTEM_ACTOR, now: wallClock },
        v.parse(ClientForm, clientBody({ clientName: "Acme Research" })),
      );
      const harbor = await createSupplier(
        { db, actor: SYSTEM_ACTOR, now: wallClock },
        v.parse(SupplierForm, supplierBody({ supplierName: "Harbor Panel" })),
      );
      const ridge = await createSupplier(
        { db, actor: SYSTEM_ACTOR, now: wallClock },
        v.parse(SupplierForm, supplierBody({ supplierName: "Ridge Panel" })),
      );
      const projectId = newId();
      await db.insertInto("projects").values({
        id: projectId,
        projectType: PROJECT_TYPE.CHILD,
        projectCode: "88001-1",
        projectName: "Harbor shoppers",
        clientId: client._id,
        projectStatus: PROJECT_STATUS.LIVE,
        sampleSize: 50,
        cpi: 2.5,
        createdAt: now,
        updatedAt: now,
        statusChangedAt: now,
      }).execute();
      const day = (supplierId: string, v: Record<string, number>) => ({
        date: today,
        projectId,
        parentProjectId: null,
        supplierId,
        supplierMapId: newId(),
        clientId: client._id,
        ...v,
      });
      for (
        const row of [
          day(harbor._id, { clicked: 12, complete: 4, terminate: 5, security: 1, revenue: 10, cost: 4.4 }),
          day(ridge._id, { clicked: 7, complete: 2, qualityTerm: 1, drop: 2, revenue: 5, cost: 2.5 }),
        ]
      ) await addToRouterDaily(db, [row]);

      const { page } = await newPage(browser, server.url);
      await signIn(page, admin.email);
      const grid = page.getByTestId("data-grid");
      const bodyRows = grid.locator("tbody tr[data-row-id]");

      await t.step("the Client tab, then the Supplier tab with a row per supplier", async () => {
        await page.goto("/admin/report");
        await page.getByRole("heading", { name: "Reports" }).waitFor();
        await grid.getByRole("cell", { name: "88001-1" }).waitFor();
        assertEquals(await bodyRows.count(), 1);
        await page.getByRole("tab", { name: "Supplier" }).click();
        await grid.getByRole("cell", { name: "Ridge Panel" }).waitFor();
        assertEquals(await bodyRows.count(), 2);
      });

      await t.step("Export downloads the same rows, cell for cell", async () => {
        const headers = (await grid.locator("thead th").allTextContents()).map((h) => h.trim());
        const onScreen: string[][] = [];
        for (let i = 0; i < await bodyRows.count(); i++) {
          onScreen.push((await bodyRows.nth(i).locator("td").allTextContents()).map((c) => c.trim()));
        }
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          page.getByRole("button", { name: /Export/ }).click(),
        ]);
        const text = (await Deno.readTextFile((await download.path())!)).replace(/^\uFEFF/, "");
        const [head, ...lines] = text.trim().split(/\r\n/);
        const csvHeaders = cells(head);
        assertEquals(lines.length, onScreen.length);
        // the grid's columns are the CSV's, in its order (the grid may add a selection or action
        // column, and keeps a few in its column chooser): each shown one holds the CSV's cells
        const shown = csvHeaders.map((h) => headers.indexOf(h));
        const picked = csvHeaders.filter((_, i) => shown[i] >= 0);
        assert(picked.length >= 8, `headers ${headers.join("|")}`);
        assertEquals(headers.filter((h) => csvHeaders.includes(h)), picked);
        assertEquals(
          lines.map((l) => cells(l).filter((_, i) => shown[i] >= 0)),
          onScreen.map((r) => shown.filter((at) => at >= 0).map((at) => r[at])),
        );
        assertEquals(lines.map((l) => cells(l).slice(0, 5)), [
          ["Harbor Panel", "88001-1", "Harbor shoppers", "12", "4"],
          ["Ridge Panel", "88001-1", "Harbor shoppers", "7", "2"],
        ]);
      });
    } finally {
      await browser.close();
      await server.close();
    }
  }),
);
