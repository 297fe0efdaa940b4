/**
 * Grids people can sort and fit (issue 25, item 3), measured in the built SPA: a header sorts its
 * list on the server (and again the other way), from the keyboard too; the column chooser hides a
 * column for this user and the choice survives a reload; at 1280 px the projects toolbar is one
 * line; at 1440 px the important columns of each screen are in view; ticking a row opens a drawer
 * with content, no blank panel; a report tab's totals row is the server's totals.
 */
import * as v from "valibot";
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { startSandbox } from "../helpers/providers.ts";
import { ClientForm } from "../../shared/schemas/client.ts";
import { SupplierForm } from "../../shared/schemas/supplier.ts";
import { ChildProject, GroupProject } from "../../shared/schemas/project.ts";
import { JobForm } from "../../shared/schemas/support.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { createClient } from "../../server/domain/clients/clients.ts";
import { createSupplier } from "../../server/domain/suppliers/suppliers.ts";
import type { Caller } from "../../server/domain/projects/projects.ts";
import { createChildProject, createGroupProject } from "../../server/domain/projects/create.ts";
import { addJob } from "../../server/domain/support/jobs.ts";
import { addToRouterDaily } from "../../server/domain/router/rollup.ts";
import { newId } from "../../server/db/ids.ts";
import { reportTotals } from "../../server/domain/reports/totals.ts";
import { columnsStorageKey } from "../../web/src/components/data-grid/ColumnChooser.tsx";
import { e2e, launchBrowser, newPage, signIn, startServer } from "./helpers.ts";
import { wallClock } from "../../server/domain/common/clock.ts";

const WIDE = { width: 1440, height: 900 };

/** The grid's first row's text in a column (by its header). */
async function firstCell(page: Page, header: string) {
  const grid = page.getByTestId("data-grid");
  const heads = (await grid.locator("thead th").allTextContents()).map((h) => h.trim());
  const i = heads.indexOf(header);
  assert(i >= 0, `${header} among ${heads.join("|")}`);
  return (await grid.locator("tbody tr[data-row-id]").first().locator("td").nth(i).textContent())?.trim();
}

/**
 * Each named column's header lies inside the screen and is not under the row menu column pinned
 * to the grid's right edge: fully in view without scrolling sideways.
 */
async function assertInView(page: Page, names: string[], where: string) {
  const grid = page.getByTestId("data-grid");
  const scroller = (await page.getByTestId("data-grid-scroll").boundingBox())!;
  const pinned = await grid.locator("thead th").last().boundingBox();
  const edge = Math.min(WIDE.width, scroller.x + scroller.width, pinned?.x ?? Infinity);
  for (const name of names) {
    const box = (await grid.getByRole("columnheader", { name, exact: true }).boundingBox())!;
    const heads = await grid.locator("thead th").evaluateAll((ths) =>
      ths.map((th) => `${th.textContent}@${Math.round(th.getBoundingClientRect().right)}`).join(" ")
    );
    assert(
      box.x + box.width <= WIDE.width,
      `${where}: ${name} ends at ${box.x + box.width} > 1440: ${heads}`,
    );
    assert(
      box.x + box.width <= edge + 1,
      `${where}: ${name} ends at ${box.x + box.width}, in view up to ${edge}`,
    );
  }
}

Deno.test(
  e2e("grids: header sort, column chooser, one-line toolbar, 1440 px fit, drawer, totals", async (t) => {
    const server = await startServer();
    const sb = await startSandbox();
    server.deps.services.providers = sb.registry({ sandbox: true });
    const browser = await launchBrowser();
    const { db } = server.deps;
    try {
      const admin = await server.user("SUPERADMIN");
      const caller: Caller = { actor: SYSTEM_ACTOR, userId: admin._id, role: "SUPERADMIN" };
      const client = await createClient(
        { db, actor: SYSTEM_ACTOR, now: wallClock },
        v.parse(ClientForm, {
          clientName: "Meridian Consumer Research Partners",
          countryId: "US",
          clientEmail: "a@m.example",
        }),
      );
      const supplier = await createSupplier(
        { db, actor: SYSTEM_ACTOR, now: wallClock },
        v.parse(SupplierForm, {
          supplierType: 1,
          supplierName: "Northwind Panel Partners",
          supplierShortCode: "NWPP",
          supplierEmail: "ops@nw.example",
          countryId: "US",
          supplierRuleCPI: "1.5|2",
        }),
      );
      const project = async (projectName: string) => {
        const group = await createGroupProject(
          { db, now: wallClock, ...caller },
          v.parse(GroupProject, {
            projectName,
            clientId: client._id,
            userId: admin._id,
            averageLOI: 10,
            ir: 50,
          }),
        );
        const child = await createChildProject(
          { db, now: wallClock, ...caller },
          v.parse(ChildProject, {
            projectName: `${projectName} United States`,
            parentProjectId: group._id,
            clientId: client._id,
            countryId: "US",
            averageLOI: 10,
            ir: 50,
            sampleSize: 1200,
            respondentClickQuota: 0,
            cpi: 3.8,
            startDate: "2026-11-01",
            endDate: "2026-12-01",
          }),
        );
        return { group, child };
      };
      const mango = await project("Mango Market Pulse Quarterly");
      const apple = await project("Apple Orchard Shopper Study");
      const zebra = await project("Zebra Crossing Commuter Survey");

      // Ready To Invoice: the Mango group, with a long PO number and reference
      await db.updateTable("projects").set({
        projectStatus: PROJECT_STATUS.READY_TO_INVOICE,
        poNumber: "PO-2026-CONSUMER-0001",
        complete: 1180,
        approved: 1150,
      }).where("id", "in", [mango.group._id, mango.child._id]).execute();
      // figures for the reports, over two days
      const today = new Date().toISOString().slice(0, 10);
      for (const [p, clicked, complete] of [[apple, 14_250, 1_210], [zebra, 9_870, 860]] as const) {
        await addToRouterDaily(db, [{
          date: today,
          projectId: p.child._id,
          parentProjectId: p.group._id,
          supplierId: supplier._id,
          supplierMapId: newId(),
          clientId: client._id,
          clicked,
          complete,
          terminate: 4_100,
          qualityTerm: 320,
          overQuota: 210,
          security: 95,
          drop: 1_400,
          revenue: complete * 3.8,
          cost: complete * 1.75,
        }]);
      }
      // the portal: the supplier's user and its map on the Apple child
      const stamp = new Date().toISOString();
      await db.insertInto("supplier_maps").values({
        id: newId(),
        projectId: apple.child._id,
        supplierId: supplier._id,
        supplierCPI: 1.75,
        supplierQuota: 600,
        complete: 410,
        clicked: 5200,
        createdAt: stamp,
        updatedAt: stamp,
      } as never).execute();
      await db.updateTable("projects").set({ projectStatus: PROJECT_STATUS.LIVE }).where(
        "id",
        "=",
        apple.child._id,
      )
        .execute();
      const supplierUser = await server.user("SUPPLIER", { email: "nw@e2e.test", supplierId: supplier._id });
      await addJob(
        { db, actor: caller.actor, now: wallClock },
        v.parse(JobForm, {
          projectCode: zebra.child.projectCode,
          interval: 1440,
          comment: "Pause when the commuter quota for the weekday cells is reached",
          isSoft: true,
        }),
      );

      const { context, page, errors } = await newPage(browser, server.url);
      await page.setViewportSize(WIDE);
      await signIn(page, admin.email);
      const grid = page.getByTestId("data-grid");
      const params = () => new URL(page.url()).searchParams;

      await t.step("a header sorts on the server, then the other way; aria-sort says which", async () => {
        await page.goto("/admin/project");
        await grid.locator(`tr[data-row-id="${zebra.group._id}"]`).waitFor();
        // newest first by default: the Zebra project
        assert((await firstCell(page, "Project"))?.startsWith("Zebra"));
        const header = grid.getByRole("columnheader", { name: "Project", exact: true });
        assertEquals(await header.getAttribute("aria-sort"), "none");
        await header.getByRole("button").click();
        await page.waitForURL((u) => u.searchParams.get("sort") === "projectName");
        await page.waitForFunction(() =>
          document.querySelector("[data-testid=data-grid] tbody tr[data-row-id]")?.textContent?.includes(
            "Apple",
          )
        );
        assertEquals(await header.getAttribute("aria-sort"), "ascending");
        assertEquals(params().get("dir"), null);
        // again, from the keyboard: the other way
        await header.getByRole("button").focus();
        await page.keyboard.press("Enter");
        await page.waitForURL((u) => u.searchParams.get("dir") === "desc");
        await page.waitForFunction(() =>
          document.querySelector("[data-testid=data-grid] tbody tr[data-row-id]")?.textContent?.includes(
            "Zebra",
          )
        );
        assertEquals(await header.getAttribute("aria-sort"), "descending");
        await page.keyboard.press("Enter");
        await page.waitForFunction(() =>
          document.querySelector("[data-testid=data-grid] tbody tr[data-row-id]")?.textContent?.includes(
            "Apple",
          )
        );
        // the sort is in the URL: a reload keeps it
        await page.reload();
        await grid.locator(`tr[data-row-id="${apple.group._id}"]`).waitFor();
        assert((await firstCell(page, "Project"))?.startsWith("Apple"));
        // a column the list declares no sort for has no sort button
        const client = grid.getByRole("columnheader", { name: "Client", exact: true });
        assertEquals([await client.getAttribute("aria-sort"), await client.getByRole("button").count()], [
          null,
          0,
        ]);
      });

      await t.step(
        "the column chooser hides a column for this user; the choice survives a reload",
        async () => {
          await page.getByTestId("column-chooser").click();
          await page.getByRole("checkbox", { name: "Client" }).click();
          await page.keyboard.press("Escape");
          await grid.getByRole("columnheader", { name: "Client", exact: true }).waitFor({
            state: "detached",
          });
          const key = columnsStorageKey(admin._id, "projects");
          assertEquals(await page.evaluate((k) => localStorage.getItem(k), key), '{"clienName":false}');
          await page.reload();
          await grid.locator(`tr[data-row-id="${apple.group._id}"]`).waitFor();
          assertEquals(await grid.getByRole("columnheader", { name: "Client", exact: true }).count(), 0);
          assert(await grid.getByRole("columnheader", { name: "Project", exact: true }).isVisible());
          // shown again from the chooser
          await page.getByTestId("column-chooser").click();
          await page.getByRole("checkbox", { name: "Client" }).click();
          await page.keyboard.press("Escape");
          await grid.getByRole("columnheader", { name: "Client", exact: true }).waitFor();
          assertEquals(await page.evaluate((k) => localStorage.getItem(k), key), null);
        },
      );

      await t.step(
        "ticking a row opens the drawer with its content, no blank panel over the table",
        async () => {
          await grid.locator(`tr[data-row-id="${apple.group._id}"]`).getByRole("checkbox").click();
          const drawer = page.getByTestId("selection-drawer");
          await drawer.getByText("1 project selected").waitFor();
          await drawer.getByText(apple.child.projectCode).waitFor();
          const region = (await page.getByRole("region", { name: "Selected rows" }).boundingBox())!;
          const content = (await drawer.boundingBox())!;
          // the region is the drawer: nothing around it but its border
          assert(region.height - content.height <= 2, `region ${region.height} vs drawer ${content.height}`);
          // what shows at the region's middle and top is the drawer's content, not an empty box
          for (const y of [region.y + 4, region.y + region.height / 2]) {
            const inside = await page.evaluate(
              ([x, y]) => !!document.elementFromPoint(x, y)?.closest("[data-testid=selection-drawer]"),
              [region.x + region.width / 2, y],
            );
            assert(inside, `the drawer's content at y=${y}`);
          }
          // no other box with the card's white background is on the grid
          const blank = await page.evaluate(() => {
            const table = document.querySelector("[data-testid=data-grid]")!.getBoundingClientRect();
            return [...document.querySelectorAll("[aria-label='Selected rows'] *")].filter((el) => {
              const r = el.getBoundingClientRect();
              return r.height > 40 && !el.textContent?.trim() && r.top < table.bottom && r.bottom > table.top;
            }).length;
          });
          assertEquals(blank, 0);
          await drawer.getByRole("button", { name: "Clear selection" }).click();
          await drawer.waitFor({ state: "detached" });
        },
      );

      await t.step("at 1280 x 800 the projects toolbar is one line; extra filters in a popover", async () => {
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.goto("/admin/project");
        const toolbar = page.getByRole("toolbar", { name: "Filters" });
        await toolbar.getByText("Add Project").waitFor();
        const boxes = await toolbar.evaluate((el) =>
          [...el.querySelectorAll("button, input, [role=combobox]")]
            .map((c) => c.getBoundingClientRect())
            .filter((r) => r.width > 0 && r.height > 0)
            .map((r) => ({ top: r.top, bottom: r.bottom, right: r.right }))
        );
        assert(boxes.length >= 8, `${boxes.length} controls`);
        const first = boxes[0];
        for (const b of boxes) {
          assert(
            b.top < first.bottom && b.bottom > first.top,
            `a control at ${b.top} is not on the line at ${first.top}`,
          );
          assert(b.right <= 1280, `a control ends at ${b.right}`);
        }
        await toolbar.getByTestId("more-filters").click();
        await page.getByRole("textbox", { name: "Min date" }).waitFor();
        await page.keyboard.press("Escape");
        await page.setViewportSize(WIDE);
      });

      await t.step("at 1440 px the important columns are in view", async () => {
        await page.goto("/admin/invoice");
        await grid.locator(`tr[data-row-id="${mango.group._id}"]`).waitFor();
        await assertInView(page, ["Status", "Total"], "Ready To Invoice");
        await page.goto("/admin/report");
        await grid.locator("tbody tr[data-row-id]").first().waitFor();
        await assertInView(page, ["Complete", "Revenue"], "Reports, Client");
        await page.goto("/admin/report?tab=supplier");
        await grid.locator("tbody tr[data-row-id]").first().waitFor();
        await assertInView(page, ["Approved", "Expense"], "Reports, Supplier");
        await page.goto("/admin/report?tab=completeAllocated");
        await grid.locator("tbody tr[data-row-id]").first().waitFor();
        await assertInView(page, ["Expense"], "Reports, Complete Allocated");
        await page.goto("/admin/support/job");
        await grid.locator("tbody tr[data-row-id]").first().waitFor();
        await assertInView(page, ["Soft", "Status"], "Schedule Jobs");
      });

      await t.step("a report tab's totals row is the server's totals over every matching row", async () => {
        await page.goto("/admin/report?size=5");
        const totals = page.getByTestId("grid-totals");
        await totals.waitFor();
        const want = await reportTotals(db, "client", {
          filter: { type: "client" },
          search: "",
          pageNo: 1,
          limit: 5,
        });
        assertEquals(want.rows, 2);
        const cell = (id: string) => totals.locator(`td[data-column=${id}]`).textContent();
        assertEquals(await cell("clientName"), "Total (2 rows)");
        assertEquals(await cell("clicked"), String(14_250 + 9_870));
        assertEquals(await cell("clicked"), String(want.clicked));
        assertEquals(await cell("complete"), String(want.complete));
        assertEquals(await cell("revenue"), want.revenue.toFixed(2));
        assertEquals(want.revenue, (1_210 + 860) * 3.8);
        // narrowed by a search, the totals follow
        await page.getByRole("searchbox").fill(zebra.child.projectCode);
        await page.waitForFunction(() =>
          document.querySelector("[data-testid=grid-totals]")?.textContent?.includes("Total (1 row)")
        );
        assertEquals(await cell("clicked"), "9870");
      });
      assertEquals(errors, []);
      await context.close();

      await t.step("the import grids at 1440 px: Qualifications and End date in view", async () => {
        const { context, page } = await newPage(browser, server.url);
        await page.setViewportSize(WIDE);
        await signIn(page, (await server.user("APIMANAGER")).email);
        const grid = page.getByTestId("data-grid");
        for (const [path, name] of [["/admin/api/mrkt", "UniMrkt"], ["/admin/api", "Precision"]]) {
          await page.goto(path);
          await grid.locator("tbody tr[data-row-id]").first().waitFor();
          await assertInView(page, ["Qualifications", "End date"], `${name} offers`);
        }
        await context.close();
      });

      await t.step("the supplier portal at 1440 px: Status and Report in view", async () => {
        const { context, page } = await newPage(browser, server.url);
        await page.setViewportSize(WIDE);
        await signIn(page, supplierUser.email);
        await page.getByTestId("data-grid").locator("tbody tr[data-row-id]").first().waitFor();
        await assertInView(page, ["Status", "Report"], "Supplier portal");
        await context.close();
      });
    } finally {
      await browser.close();
      await sb.close();
      await server.close();
    }
  }),
);
