/**
 * The grids and the frame at a laptop width (1024 px) in the built SPA: the row menu pinned in view,
 * grouped, and naming the record it deletes; amber rows explained; a way out of filters that hide
 * every row; list failures told once; an outage told apart from a new release; visible focus;
 * read-only roles' disabled buttons that look disabled and say why; a page for a record that is not
 * there says so and leads back; texts that are not cut mid-word.
 */
import * as v from "valibot";
import type { Locator, Page } from "playwright-core";
import { assert, assertEquals } from "../helpers/assert.ts";
import { MSG } from "../../shared/messages.ts";
import { ClientForm } from "../../shared/schemas/client.ts";
import { ChildProject, GroupProject } from "../../shared/schemas/project.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { createClient } from "../../server/domain/clients/clients.ts";
import type { Caller } from "../../server/domain/projects/projects.ts";
import { createChildProject, createGroupProject } from "../../server/domain/projects/create.ts";
import { e2e, launchBrowser, newPage, pathOf, signIn, startServer } from "./helpers.ts";
import { wallClock } from "../../server/domain/common/clock.ts";

const LAPTOP = { width: 1024, height: 800 };

/** Records every error notice shown from now on (a notice may come and go between two looks). */
async function watchErrorNotices(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (globalThis as unknown as { errorNotices: string[] }).errorNotices = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll("[data-notice=error]")) {
        const text = el.textContent ?? "";
        if (!el.hasAttribute("data-seen")) {
          el.setAttribute("data-seen", "");
          seen.push(text);
        }
      }
    }).observe(document.body, { subtree: true, childList: true });
  });
  return () => page.evaluate(() => (globalThis as unknown as { errorNotices: string[] }).errorNotices);
}

/** The text of the elements an element's aria-describedby points at. */
const description = (el: Locator) =>
  el.evaluate((node) =>
    (node.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? "").join(" ")
  );

Deno.test(e2e("grids at 1024 px: pinned, grouped, explained, recoverable and readable", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  const { db } = server.deps;
  try {
    const admin = await server.user("SUPERADMIN");
    const subscriber = await server.user("SUBSCRIBER");
    const caller: Caller = { actor: SYSTEM_ACTOR, userId: admin._id, role: "SUPERADMIN" };
    const client = await createClient(
      { db, actor: SYSTEM_ACTOR, now: wallClock },
      v.parse(ClientForm, {
        clientName: "Southern Cross Research",
        countryId: "AU",
        clientEmail: "a@sc.example",
      }),
    );
    const group = (projectName: string) =>
      createGroupProject(
        { db, now: wallClock, ...caller },
        v.parse(GroupProject, {
          projectName,
          clientId: client._id,
          userId: admin._id,
          averageLOI: 10,
          ir: 50,
        }),
      );
    const child = (parent: string, projectName: string, sampleSize: number) =>
      createChildProject(
        { db, now: wallClock, ...caller },
        v.parse(ChildProject, {
          projectName,
          parentProjectId: parent,
          clientId: client._id,
          countryId: "CA",
          averageLOI: 10,
          ir: 50,
          sampleSize,
          respondentClickQuota: 0,
          cpi: 3.8,
          startDate: "2026-11-01",
          endDate: "2026-12-01",
        }),
      );
    const travel = await group("Travel Intentions Winter");
    const full = await group("Streaming Habits Study");
    const brand = await child(full._id, "Brand Health Canada Tracker Wave Two", 60);
    await child(travel._id, "Travel Intentions Winter Canada", 100);
    // the brand child has all its completes: its group reaches its sample size
    await db.updateTable("projects").set({ complete: 60 }).where("id", "=", brand._id).execute();

    const { context, page, errors } = await newPage(browser, server.url);
    await page.setViewportSize(LAPTOP);
    await signIn(page, admin.email);
    const grid = page.getByTestId("data-grid");
    const scroller = page.getByTestId("data-grid-scroll");
    const travelRow = grid.locator(`tr[data-row-id="${travel._id}"]`);

    await t.step("the row menu stays in view, pinned right; the sideways scroll shows", async () => {
      await page.goto("/admin/project");
      await travelRow.waitFor();
      assertEquals(
        await scroller.getAttribute("data-overflow-right"),
        "true",
        "the table is wider than its box",
      );
      assertEquals(await scroller.getAttribute("data-overflow-left"), null);
      const box = (await scroller.boundingBox())!;
      const menu = travelRow.getByRole("button", { name: "Row actions" });
      const at = (await menu.boundingBox())!;
      assert(at.x >= box.x && at.x + at.width <= box.x + box.width, "the row menu is inside the grid's box");
      // nothing lies on top of it: a click at its centre reaches it
      assert(
        await menu.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
        }),
      );
      const cell = menu.locator("xpath=ancestor::td");
      assertEquals(await cell.evaluate((el) => getComputedStyle(el).position), "sticky");
      assert(
        await cell.evaluate((el) => getComputedStyle(el).backgroundImage !== "none"),
        "the pinned cell paints over the columns scrolling beneath it",
      );
      // the shadow strip shows while columns hide beneath the pinned one
      // (it fades in: wait for the end of its transition)
      await page.waitForFunction(
        (el) => getComputedStyle(el as Element, "::before").opacity === "1",
        await cell.elementHandle(),
      );
      // a scrollbar that shows: thin, with a coloured thumb
      assertEquals(await scroller.evaluate((el) => getComputedStyle(el).scrollbarWidth), "thin");
      // scrolled to the end, the left edge fades and the right one no longer does
      await scroller.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      await page.waitForFunction(() =>
        document.querySelector("[data-testid=data-grid-scroll]")?.hasAttribute("data-overflow-left")
      );
      assertEquals(await scroller.getAttribute("data-overflow-right"), null);
      const status = (await grid.getByRole("columnheader", { name: "Status" }).boundingBox())!;
      assert(status.x >= box.x && status.x + status.width <= box.x + box.width, "Status comes into view");
      // the box scrolls from the keyboard too
      assertEquals(await scroller.getAttribute("tabindex"), "0");
      await scroller.evaluate((el) => el.scrollTo({ left: 0 }));
    });

    await t.step("the row menu comes in labelled groups, Delete last, naming the project", async () => {
      await travelRow.getByRole("button", { name: "Row actions" }).click();
      const menu = page.getByRole("menu");
      await menu.waitFor();
      const groups = await menu.getByRole("group").evaluateAll((els) =>
        els.map((g) => [
          g.getAttribute("aria-label") ?? "",
          ...[...g.querySelectorAll("[role=menuitem]")].map((i) => i.textContent?.trim()),
        ])
      );
      assertEquals(groups, [
        ["Open", "Child", "Add Project", "Edit", "Clone"],
        ["View", "Logs", "Security", "Supplier Stats", "Redirects", "Supplier Mapped"],
        [
          "Reports & downloads",
          "Export Data",
          "Supplier Data",
          "Prescreen Data",
          "Identifiers",
          "Progress Image",
          "Child Projects Report",
        ],
        ["E-mail", "Send Bulk Email", "RFQ Email", "Progress Report", "Email Supplier Links"],
        ["Status", "Edit Status"],
        ["", "Delete"],
      ]);
      assertEquals(await menu.getByRole("separator").count(), 5);
      for (const label of ["Open", "View", "Reports & downloads", "E-mail", "Status"]) {
        assert(await menu.getByText(label, { exact: true }).isVisible(), label);
      }
      await menu.getByRole("menuitem", { name: "Delete" }).click();
      const dialog = page.getByRole("alertdialog");
      await dialog.getByRole("heading", { name: MSG.areYouSure }).waitFor();
      assertEquals(
        (await dialog.getByText(/^Delete project/).textContent())?.trim(),
        `Delete project ${travel.projectCode} Travel Intentions Winter?`,
      );
      assert(await dialog.getByRole("button", { name: "Yes" }).isVisible());
      await dialog.getByRole("button", { name: "No" }).click();
      await dialog.waitFor({ state: "hidden" });
      assert(await travelRow.isVisible(), "No keeps the row");
    });

    await t.step("amber rows say why, on the row and in a legend under the grid", async () => {
      const fullRow = grid.locator(`tr[data-row-id="${full._id}"]`);
      assertEquals(await fullRow.getAttribute("data-warning"), "true");
      assertEquals(await fullRow.getAttribute("title"), "Completes have reached the sample size");
      assertEquals(await travelRow.getAttribute("data-warning"), null);
      assertEquals(await travelRow.getAttribute("title"), null);
      const legend = page.getByText("Amber: completes have reached the sample size");
      assert(await legend.isVisible());
      assertEquals(await description(fullRow), "Amber: completes have reached the sample size");
    });

    await t.step("filters that hide every row offer a way out; Reset moves nothing", async () => {
      const reset = page.getByTestId("filters-reset");
      assert(!(await reset.isVisible()), "no Reset while no filter is on");
      const exportButton = page.getByRole("button", { name: "Export" });
      const moreFilters = page.getByTestId("more-filters");
      const before = [await exportButton.boundingBox(), await moreFilters.boundingBox()];
      await page.getByRole("searchbox", { name: "Search projects" }).fill("no such project");
      await page.waitForURL((u) => u.searchParams.get("q") === "no such project");
      await grid.getByText(MSG.noRows, { exact: true }).waitFor();
      assert(await grid.getByText("No rows match the current search and filters.").isVisible());
      assert(await reset.isVisible());
      assertEquals([await exportButton.boundingBox(), await moreFilters.boundingBox()], before);
      await grid.getByRole("button", { name: "Clear filters" }).click();
      await travelRow.waitFor();
      assertEquals(new URL(page.url()).searchParams.get("q"), null);
      assertEquals(await page.getByRole("searchbox", { name: "Search projects" }).inputValue(), "");
      // with no filter on, an empty list is just 'No Rows' (the child list of a new group, say)
    });

    await t.step("a list that fails to load says so once, in place", async () => {
      const errorNotices = await watchErrorNotices(page);
      await page.route("**/api/v1/admin/projects", (route) => route.abort("internetdisconnected"));
      await page.getByRole("combobox", { name: "Rows per page" }).click();
      await page.getByRole("option", { name: "10", exact: true }).click();
      const failure = grid.getByRole("alert").filter({ hasText: "The list could not be loaded." });
      await failure.waitFor();
      assert((await failure.textContent())?.includes("Network Error"), "the reason shows in the grid");
      await page.waitForTimeout(300);
      assertEquals(await errorNotices(), [], "no notice repeats it");
      await page.unrouteAll();
      await failure.getByRole("button", { name: "Retry" }).click();
      await travelRow.waitFor();
    });

    await t.step("a screen that cannot load: an outage, then Try again; or a new release", async () => {
      // the server stops answering: the Clients screen's code cannot be fetched, nor /healthz
      await page.route("**/*", (route) => route.abort("connectionrefused"));
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Clients" }).click();
      await page.getByRole("heading", { name: "No connection to Samplex" }).waitFor();
      assert(
        await page.getByText("Samplex cannot be reached. Check your connection, then try again.").isVisible(),
      );
      assertEquals(await page.getByText("A new version of Samplex was published").count(), 0);
      // it comes back: Try again repeats the navigation
      await page.unrouteAll();
      await page.getByRole("button", { name: "Try again" }).click();
      await page.getByRole("heading", { name: "Clients" }).waitFor();
      assertEquals(pathOf(page), "/admin/client");

      // the server answers but the screen's file is gone: a new version was published
      await page.route("**/assets/SuppliersListPage-*.js", (route) => route.abort("connectionrefused"));
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Suppliers" }).click();
      await page.getByRole("heading", { name: "Samplex was updated" }).waitFor();
      assert(
        await page.getByText("A new version of Samplex was published. Reload the page to continue.")
          .isVisible(),
      );
      assert(await page.getByRole("button", { name: "Reload" }).isVisible());
      await page.unrouteAll();
    });

    await t.step("the Clients search box shows its whole placeholder", async () => {
      await page.goto("/admin/client");
      const search = page.getByRole("searchbox", { name: "Search clients" });
      await search.waitFor();
      assertEquals(await search.getAttribute("title"), "Searches name, code, email and city");
      const fits = await search.evaluate((el) => {
        const input = el as HTMLInputElement;
        const cs = getComputedStyle(input);
        const ctx = document.createElement("canvas").getContext("2d")!;
        ctx.font = cs.font;
        const room = input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        return ctx.measureText(input.placeholder).width <= room;
      });
      assert(fits, "the placeholder is not cut");
    });

    await t.step("child project names wrap instead of being cut mid-word", async () => {
      await page.goto(`/admin/project/${full._id}/childs`);
      const name = grid.locator(`tr[data-row-id="${brand._id}"]`).getByText(
        "Brand Health Canada Tracker Wave Two",
      );
      await name.waitFor();
      const clipped = await name.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
      assert(!clipped, "the whole name shows, over two lines if need be");
      assertEquals(await name.evaluate((el) => getComputedStyle(el).whiteSpace), "normal");
    });

    await t.step("focus shows clearly: the top navigation and the date pickers' buttons", async () => {
      await page.goto("/admin/project");
      await travelRow.waitFor();
      const nav = page.getByRole("navigation", { name: "Main" });
      const clients = nav.getByRole("link", { name: "Clients" });
      // keyboard focus (focus-visible): from the link before it, Tab
      await nav.getByRole("link", { name: "Projects" }).focus();
      await page.keyboard.press("Tab");
      assert(await clients.evaluate((el) => el === document.activeElement));
      const ring = await clients.evaluate((el) => getComputedStyle(el).boxShadow);
      assert(ring !== "none" && !/rgba\([^)]*, 0\.4\)/.test(ring), `a full-strength ring: ${ring}`);
      // the ring (2 px beyond a 2 px offset) fits inside the scrolling nav, which would clip it
      const [link, box] = [(await clients.boundingBox())!, (await nav.boundingBox())!];
      assert(link.y - 4 >= box.y && link.y + link.height + 4 <= box.y + box.height, "not clipped");

      // the projects toolbar keeps its dates under Filters
      await page.getByTestId("more-filters").click();
      await page.getByRole("textbox", { name: "Min date" }).focus();
      await page.keyboard.press("Tab");
      const pick = page.getByRole("button", { name: "Pick Min date" });
      assert(await pick.evaluate((el) => el === document.activeElement));
      assert(
        await pick.evaluate((el) => getComputedStyle(el).boxShadow !== "none"),
        "the calendar button shows focus",
      );
    });
    assertEquals(errors, []);
    await context.close();

    await t.step("SUBSCRIBER: row menus and Add Project look disabled and say why", async () => {
      const { context, page } = await newPage(browser, server.url);
      await signIn(page, subscriber.email);
      await page.goto("/admin/project");
      const grid = page.getByTestId("data-grid");
      await grid.locator(`tr[data-row-id="${travel._id}"]`).waitFor();
      const menus = grid.getByRole("button", { name: "Row actions" });
      assertEquals(await menus.count(), 2);
      for (const menu of await menus.all()) {
        assert(await menu.isDisabled(), "the spec keeps them disabled");
        assertEquals(await description(menu), "Your role cannot change records");
        assert(Number(await menu.evaluate((el) => getComputedStyle(el).opacity)) <= 0.5, "faded");
        const wrapper = menu.locator("xpath=..");
        assertEquals(await wrapper.evaluate((el) => getComputedStyle(el).cursor), "not-allowed");
        assertEquals(await wrapper.getAttribute("title"), "Your role cannot change records");
      }
      const add = page.getByRole("button", { name: "Add Project" });
      assert(await add.isDisabled());
      assertEquals(await description(add), "Your role cannot add records");
      assert(Number(await add.evaluate((el) => getComputedStyle(el).opacity)) <= 0.5);
      assertEquals(
        await add.locator("xpath=..").evaluate((el) => getComputedStyle(el).cursor),
        "not-allowed",
      );
      await context.close();
    });

    await t.step("a project's invoice page for no such project says so and leads back", async () => {
      const { context, page } = await newPage(browser, server.url);
      await signIn(page, admin.email);
      await page.goto("/admin/invoice/0123456789abcdef01234567/edit");
      await page.locator("#main").getByRole("alert").getByText("Project not found").waitFor();
      await page.getByRole("link", { name: "Back to Ready To Invoice" }).click();
      await page.waitForURL("**/admin/invoice");
      await context.close();
    });
  } finally {
    await browser.close();
    await server.close();
  }
}));
