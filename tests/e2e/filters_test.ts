/** The filter toolbar's date range (part 1, 2.5): dd/MM/yyyy, max not before min, state in the URL. */
import { assert, assertEquals } from "../helpers/assert.ts";
import { e2e, launchBrowser, newPage, signIn, startServer } from "./helpers.ts";

Deno.test(e2e("filters: a date range refuses max before min and shows only what it applies", async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const admin = await server.user("SUPERADMIN");
    const { context, page, errors } = await newPage(browser, server.url);
    await signIn(page, admin.email);
    await page.goto(`${server.url}/admin/project`);
    await page.getByRole("heading", { name: "Projects" }).waitFor();
    // the projects toolbar keeps its dates under Filters
    const openFilters = async () => {
      if (!(await page.getByRole("textbox", { name: "Min date" }).isVisible())) {
        await page.getByTestId("more-filters").click();
      }
    };
    await openFilters();
    const min = page.getByRole("textbox", { name: "Min date" });
    const max = page.getByRole("textbox", { name: "Max date" });
    const params = () => new URL(page.url()).searchParams;

    await min.fill("10/03/2026");
    await min.press("Enter");
    await page.waitForURL((u) => u.searchParams.get("minDate") === "2026-03-10");

    await max.fill("01/03/2026");
    await max.press("Enter");
    await page.getByRole("alert").filter({ hasText: "Max date cannot be before min date" }).waitFor();
    assertEquals(params().get("maxDate"), null, "the refused date is not applied");
    assertEquals(await max.inputValue(), "", "nor left in the field as if it were");

    // an earlier min makes a range valid again: only what is typed then applies
    await min.fill("01/02/2026");
    await min.press("Enter");
    await page.waitForURL((u) => u.searchParams.get("minDate") === "2026-02-01");
    assertEquals(params().get("maxDate"), null);
    assertEquals(await page.getByText("Max date cannot be before min date").count(), 0, "the error is gone");
    await max.fill("28/02/2026");
    await max.press("Enter");
    await page.waitForURL((u) => u.searchParams.get("maxDate") === "2026-02-28");
    await page.reload();
    await openFilters();
    assertEquals([await min.inputValue(), await max.inputValue()], ["01/02/2026", "28/02/2026"]);

    await max.fill("31/02/2026");
    await max.press("Enter");
    assert(await max.getAttribute("aria-invalid"), "an impossible date is marked");
    assertEquals(params().get("maxDate"), "2026-02-28", "and changes nothing");
    assertEquals(errors, []);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}));
