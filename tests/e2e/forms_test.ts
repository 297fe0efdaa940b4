/**
 * The form pages' safety nets in chromium against the real app: unsaved changes survive a look at
 * another child project tab and are not lost by leaving without a "Leave without saving?" question
 * (Stay / Leave; a save leaves freely); a record that does not exist says so once, with a way back
 * and no Retry, while other failures keep Retry; the child project tabs share one width and the back
 * link keeps its words while the project loads.
 */
import * as v from "valibot";
import type { Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { childProjectBody } from "../helpers/fixtures.ts";
import { ClientForm } from "../../shared/schemas/client.ts";
import { ChildProject, GroupProject } from "../../shared/schemas/project.ts";
import { SupplierForm } from "../../shared/schemas/supplier.ts";
import { createClient } from "../../server/domain/clients/clients.ts";
import { createSupplier } from "../../server/domain/suppliers/suppliers.ts";
import { createChildProject, createGroupProject } from "../../server/domain/projects/create.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { UNSAVED_TEXT } from "../../web/src/components/form/unsaved.ts";
import { e2e, launchBrowser, newPage, pathOf, signIn, startServer } from "./helpers.ts";
import { wallClock } from "../../server/domain/common/clock.ts";

const MISSING = "0123456789abcdef01234567";

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** Whether the page would ask before unloading (a beforeunload listener cancels the event). */
async function asksBeforeUnload(page: Page): Promise<boolean> {
  return await page.evaluate(() => {
    const e = new Event("beforeunload", { cancelable: true });
    globalThis.dispatchEvent(e);
    return e.defaultPrevented;
  });
}

Deno.test(e2e("forms: unsaved changes, records that do not exist, child project tabs", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  const { db } = server.deps;
  try {
    const admin = await server.user("SUPERADMIN");
    const caller = { actor: SYSTEM_ACTOR, userId: admin._id, role: "SUPERADMIN" as const };
    const client = await createClient(
      { db, actor: SYSTEM_ACTOR, now: wallClock },
      v.parse(ClientForm, { clientName: "Lakeside Data", countryId: "US", clientEmail: "b@lake.example" }),
    );
    await createSupplier(
      { db, actor: SYSTEM_ACTOR, now: wallClock },
      v.parse(SupplierForm, {
        supplierType: 1,
        supplierName: "Panel Herons",
        supplierShortCode: "PHER",
        supplierEmail: "ops@herons.example",
        countryId: "US",
        supplierRuleCPI: "2|3",
      }),
    );
    const parent = await createGroupProject(
      { db, now: wallClock, ...caller },
      v.parse(GroupProject, {
        projectName: "Commuting habits",
        clientId: client._id,
        userId: admin._id,
        averageLOI: 10,
        ir: 50,
      }),
    );
    const today = new Date();
    const child = await createChildProject(
      { db, now: wallClock, ...caller },
      v.parse(
        ChildProject,
        childProjectBody(parent, {
          projectName: "Commuting habits US",
          startDate: isoDay(today),
          endDate: isoDay(new Date(today.getTime() + 30 * 86_400_000)),
        }),
      ),
    );
    const editChild = `/admin/project/child/${child._id}/edit`;

    const { page, errors } = await newPage(browser, server.url);
    await signIn(page, admin.email);
    const mainNav = page.getByRole("navigation", { name: "Main" });
    const leaveDialog = page.getByRole("alertdialog", { name: UNSAVED_TEXT.title });
    const notices = page.getByTestId("notice");

    await t.step("child edit: a tab keeps its unsaved input; leaving asks first", async () => {
      await page.goto(editChild);
      const name = page.getByLabel("Project name");
      await name.fill("Commuting habits USA");
      // nothing asks while the form is untouched, and a tab switch is not leaving
      await page.getByRole("tab", { name: "Project Quota" }).click();
      await page.getByRole("tabpanel", { name: "Project Quota" }).waitFor();
      await page.getByRole("tab", { name: "Project Information" }).click();
      assertEquals(await name.inputValue(), "Commuting habits USA");
      assertEquals(await leaveDialog.count(), 0);
      assert(await asksBeforeUnload(page), "a dirty form sets beforeunload");

      // a menu link asks; Stay keeps the page and what was typed
      await mainNav.getByRole("link", { name: "Clients" }).click();
      await leaveDialog.waitFor();
      await leaveDialog.getByText(UNSAVED_TEXT.description).waitFor();
      await leaveDialog.getByRole("button", { name: UNSAVED_TEXT.stay }).click();
      await leaveDialog.waitFor({ state: "detached" });
      assertEquals(pathOf(page), editChild);
      assertEquals(await name.inputValue(), "Commuting habits USA");

      // Leave goes where the link pointed, and nothing was saved
      await mainNav.getByRole("link", { name: "Clients" }).click();
      await leaveDialog.getByRole("button", { name: UNSAVED_TEXT.leave }).click();
      await page.waitForURL("**/admin/client");
      await page.getByRole("heading", { name: "Clients" }).waitFor();
      const saved = await db.selectFrom("projects").select("projectName").where("id", "=", child._id)
        .executeTakeFirstOrThrow();
      assertEquals(saved.projectName, "Commuting habits US");
      assert(!(await asksBeforeUnload(page)), "no beforeunload once the form is gone");
    });

    await t.step("child edit: an unsaved URL on another tab asks too; a save leaves freely", async () => {
      await page.goto(editChild);
      await page.getByRole("tab", { name: "Project URLs" }).click();
      await page.getByLabel("Live URL").fill("https://survey.example/s?uid=[uid]");
      await page.getByRole("tab", { name: "Project Information" }).click();
      await page.getByLabel("Project name").fill("Commuting habits USA");
      // the URL tab is still dirty after saving the information: the redirect after save asks
      await page.getByRole("button", { name: "Save changes" }).click();
      await leaveDialog.waitFor();
      await leaveDialog.getByRole("button", { name: UNSAVED_TEXT.stay }).click();
      await page.getByRole("tab", { name: "Project URLs" }).click();
      assertEquals(await page.getByLabel("Live URL").inputValue(), "https://survey.example/s?uid=[uid]");
      await Promise.all([
        page.waitForResponse((r) => r.url().includes("/admin/project/update/") && r.ok()),
        page.getByRole("button", { name: "Save URLs" }).click(),
      ]);
      // now every tab is saved: the back link leaves without a question
      await page.getByRole("link", { name: "Child projects" }).click();
      await page.waitForURL(`**/admin/project/${parent._id}/childs`);
      assertEquals(await leaveDialog.count(), 0);
      const saved = await db.selectFrom("projects").select(["projectName", "singleLinkUrl"])
        .where("id", "=", child._id).executeTakeFirstOrThrow();
      assertEquals(saved, {
        projectName: "Commuting habits USA",
        singleLinkUrl: "https://survey.example/s?uid=[uid]",
      });

      // a save alone: the page it opens is not held up
      await page.goto(editChild);
      await page.getByLabel("Project name").fill("Commuting habits (US)");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.waitForURL(`**/admin/project/${parent._id}/childs`);
      assertEquals(await leaveDialog.count(), 0);
    });

    await t.step("a master-data form: Cancel asks when dirty, not when untouched", async () => {
      await page.goto(`/admin/client/${client._id}/edit`);
      await page.getByLabel("Client name").waitFor();
      await page.getByRole("link", { name: "Cancel" }).click();
      await page.waitForURL("**/admin/client");
      assertEquals(await leaveDialog.count(), 0);

      await page.goto(`/admin/client/${client._id}/edit`);
      await page.getByLabel("Client name").fill("Lakeside Data Ltd");
      await page.getByRole("link", { name: "Cancel" }).click();
      await leaveDialog.waitFor();
      await leaveDialog.getByRole("button", { name: UNSAVED_TEXT.leave }).click();
      await page.waitForURL("**/admin/client");
    });

    await t.step("records that do not exist: one clear state, a way back, no Retry, no notice", async () => {
      const cases = [
        {
          path: `/admin/client/${MISSING}/edit`,
          text: "This client does not exist or was deleted.",
          back: "Clients",
        },
        {
          path: `/admin/supplier/${MISSING}/edit`,
          text: "This supplier does not exist or was deleted.",
          back: "Suppliers",
        },
        {
          path: `/admin/user/${MISSING}/edit`,
          text: "This user does not exist or was deleted.",
          back: "Users",
        },
        {
          path: `/admin/project/${MISSING}/edit`,
          text: "This project does not exist or was deleted.",
          back: "Projects",
        },
        {
          path: `/admin/project/child/${MISSING}/edit`,
          text: "This child project does not exist or was deleted.",
          back: "Projects",
        },
        {
          path: `/admin/project/${MISSING}/childs`,
          text: "This group project does not exist or was deleted.",
          back: "Projects",
        },
      ];
      for (const c of cases) {
        await page.goto(c.path);
        await page.getByText(c.text, { exact: true }).waitFor();
        const main = page.locator("main");
        assertEquals(await main.getByRole("button", { name: "Retry" }).count(), 0, c.path);
        assertEquals(await main.getByText(/Loading|could not be loaded/).count(), 0, c.path);
        assertEquals(await notices.count(), 0, `${c.path}: no notice besides the page's own state`);
      }
      // the unknown group's child projects: no actions, no list
      const main = page.locator("main");
      assertEquals(await main.getByRole("link", { name: "Edit group project" }).count(), 0);
      assertEquals(await main.getByRole("link", { name: "New Child Project" }).count(), 0);
      assertEquals(await page.getByTestId("data-grid").count(), 0);
      await main.getByRole("link", { name: "Back to Projects" }).click();
      await page.waitForURL("**/admin/project");
    });

    await t.step("other load failures keep Retry, and Retry helps", async () => {
      let fail = true;
      await page.route(`**/api/v1/admin/client/${client._id}`, async (route) => {
        if (fail) {
          await route.fulfill({
            status: 500,
            contentType: "application/json",
            body: '{"message":"Server down"}',
          });
        } else await route.continue();
      });
      await page.goto(`/admin/client/${client._id}/edit`);
      await page.getByText("This client could not be loaded.").waitFor();
      await notices.filter({ hasText: "Server down" }).waitFor();
      fail = false;
      await page.getByRole("button", { name: "Retry" }).click();
      await page.getByLabel("Client name").waitFor();
      await page.unroute(`**/api/v1/admin/client/${client._id}`);
    });

    await t.step("child edit: one width for every tab; the back link keeps its words", async () => {
      // the project answers late: the back link reads the same before and after
      let release = () => {};
      const held = new Promise<void>((r) => release = r);
      await page.route(`**/api/v1/admin/project/${child._id}`, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(editChild);
      const back = page.locator("main").getByRole("link", { name: "Child projects" });
      await back.waitFor();
      await page.getByLabel("Loading child project").waitFor();
      release();
      await page.getByRole("tab", { name: "Project Information" }).waitFor();
      assertEquals(await back.getAttribute("href"), `/admin/project/${parent._id}/childs`);
      await page.unroute(`**/api/v1/admin/project/${child._id}`);

      const widths: Record<string, number> = {};
      for (
        const tab of [
          "Project Information",
          "Project Quota",
          "Project URLs",
          "Project Securities",
          "Pre Questionaire",
          "Suppliers",
          "Exclude/Include",
        ]
      ) {
        await page.getByRole("tab", { name: tab }).click();
        const panel = page.getByRole("tabpanel", { name: tab });
        await panel.waitFor();
        // the width of what the panel shows (its first block), not of the panel box alone
        widths[tab] = Math.round(
          await panel.locator(":scope > *").first().evaluate((e) => e.getBoundingClientRect().width),
        );
      }
      const distinct = [...new Set(Object.values(widths))];
      assertEquals(distinct.length, 1, `one width for all tabs: ${JSON.stringify(widths)}`);
      const tabList = await page.getByRole("tablist").evaluate((e) => e.getBoundingClientRect().width);
      assertEquals(distinct[0], Math.round(tabList), "the panels span the page like the tab strip");
    });

    assertEquals(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
}));
