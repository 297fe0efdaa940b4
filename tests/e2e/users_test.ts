/** The Users screens on the shared grid, filters and form kits, against the real API. */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { MSG } from "../../shared/messages.ts";
import * as v from "valibot";
import { supplierBody } from "../helpers/master.ts";
import { SupplierForm } from "../../shared/schemas/supplier.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { createSupplier } from "../../server/domain/suppliers/suppliers.ts";
import {
  e2e,
  E2E_PASSWORD,
  launchBrowser,
  newPage,
  pathOf,
  readClipboard,
  signIn,
  startServer,
} from "./helpers.ts";
import { wallClock } from "../../server/domain/common/clock.ts";

Deno.test(e2e("users: paging, search, active toggle, delete, export and the user form", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  const { db } = server.deps;
  try {
    const admin = await server.user("SUPERADMIN", { firstName: "Grace", lastName: "Hopper" });
    // 12 more staff users (13 in all: more than one page of 10), three of them named Zed
    const staff = [];
    for (let i = 1; i <= 12; i++) {
      const zed = i <= 3;
      staff.push(
        await server.user(i % 2 ? "MANAGER" : "ACCOUNTANT", {
          email: `staff${String(i).padStart(2, "0")}@e2e.test`,
          firstName: zed ? `Zed${i}` : `Person${i}`,
          lastName: zed ? "Quill" : "Staff",
        }),
      );
    }
    const panel = await createSupplier(
      { db, actor: SYSTEM_ACTOR, now: wallClock },
      v.parse(SupplierForm, supplierBody({ supplierName: "Harbor Panel" })),
    );
    await server.user("SUPPLIER", { email: "supplier-user@e2e.test", supplierId: panel._id });
    // switched off: it is no longer offered to new supplier logins
    await db.updateTable("suppliers").set({ isActive: 0 }).where("id", "=", panel._id).execute();
    const { context, page, errors } = await newPage(browser, server.url);
    await signIn(page, admin.email);
    const grid = page.getByTestId("data-grid");
    const range = page.getByTestId("grid-range");
    const bodyRows = grid.locator("tbody tr[data-row-id]");

    await t.step("the grid pages on the server, 10 rows by default, page in the URL", async () => {
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).click();
      await page.waitForURL("**/admin/user");
      await page.getByRole("heading", { name: "Users" }).waitFor();
      await range.filter({ hasText: "1–10 of 13" }).waitFor();
      assertEquals(await bodyRows.count(), 10);
      await page.getByRole("button", { name: "Next page" }).click();
      await range.filter({ hasText: "11–13 of 13" }).waitFor();
      assertEquals(new URL(page.url()).searchParams.get("page"), "2");
      assertEquals(await bodyRows.count(), 3);
      // the view survives a reload
      await page.reload();
      await range.filter({ hasText: "11–13 of 13" }).waitFor();
      // page size 5 starts again at page 1
      await page.getByRole("combobox", { name: "Rows per page" }).click();
      await page.getByRole("option", { name: "5", exact: true }).click();
      await range.filter({ hasText: "1–5 of 13" }).waitFor();
      const params = new URL(page.url()).searchParams;
      assertEquals(params.get("size"), "5");
      assertEquals(params.get("page"), null);
      assertEquals(await bodyRows.count(), 5);
      // the supplier tab lists supplier logins only
      await page.getByRole("link", { name: "Suppliers", exact: true }).last().click();
      await page.waitForURL("**/admin/user/supplier");
      await range.filter({ hasText: "1–1 of 1" }).waitFor();
      assert(await grid.getByText("supplier-user@e2e.test").isVisible());
      // the Suppliers tab names each login's supplier
      assertEquals(await grid.getByRole("columnheader", { name: "Supplier" }).count(), 1);
      assert(await grid.getByRole("cell", { name: "Harbor Panel" }).isVisible());
      // New User from this tab starts as a supplier login
      await page.getByRole("link", { name: "New User" }).click();
      await page.waitForURL("**/admin/user/add?role=SUPPLIER");
      await page.getByRole("combobox", { name: "Role" }).filter({ hasText: "Supplier" }).waitFor();
      await page.getByRole("combobox", { name: "Supplier", exact: true }).waitFor();
      await page.goBack();
      await page.waitForURL("**/admin/user/supplier");
      await page.getByRole("link", { name: "Managers" }).click();
      await page.waitForURL("**/admin/user");
    });

    await t.step("search is debounced, resets the page and lives in the URL", async () => {
      await page.getByRole("button", { name: "Next page" }).click();
      await range.filter({ hasText: "11–13 of 13" }).waitFor();
      await page.getByRole("searchbox").fill("Quill");
      await range.filter({ hasText: "1–3 of 3" }).waitFor();
      const params = new URL(page.url()).searchParams;
      assertEquals(params.get("q"), "Quill");
      assertEquals(params.get("page"), null);
      assertEquals((await bodyRows.allTextContents()).filter((r) => r.includes("Quill")).length, 3);
      await page.getByRole("searchbox").fill("nobody-matches-this");
      await grid.getByText(MSG.noRows, { exact: true }).waitFor();
      await page.getByRole("button", { name: "Clear search" }).click();
      await range.filter({ hasText: "1–10 of 13" }).waitFor();
    });

    await t.step("one's own row cannot be switched off or deleted", async () => {
      await page.getByRole("searchbox").fill("Hopper");
      await range.filter({ hasText: "1–1 of 1" }).waitFor();
      const own = grid.locator(`tr[data-row-id="${admin._id}"]`);
      assert(await own.getByRole("switch", { name: `Deactivate ${admin.fullName}` }).isDisabled());
      await own.getByRole("button", { name: "Row actions" }).click();
      const del = page.getByRole("menuitem", { name: /Delete/ });
      assertEquals(await del.getAttribute("data-disabled"), "");
      assert((await del.textContent())?.includes("Your own account"));
      await page.keyboard.press("Escape");
      await page.getByRole("button", { name: "Clear search" }).click();
      await range.filter({ hasText: "1–10 of 13" }).waitFor();
    });

    const target = staff[5]; // Person6 Staff, an accountant
    const row = grid.locator(`tr[data-row-id="${target._id}"]`);

    await t.step("the active switch updates the user and the status filter finds it", async () => {
      await page.getByRole("searchbox").fill("Person6");
      await range.filter({ hasText: "1–1 of 1" }).waitFor();
      await row.getByRole("switch", { name: `Deactivate ${target.fullName}` }).click();
      await page.getByTestId("notice").filter({ hasText: "User updated successfully" }).waitFor();
      const saved = await db.selectFrom("users").select("isActive").where("id", "=", target._id)
        .executeTakeFirstOrThrow();
      assertEquals(saved.isActive, 0);
      await page.getByRole("button", { name: "Clear search" }).click();
      await page.getByRole("combobox", { name: "Status" }).click();
      await page.getByRole("option", { name: "Inactive" }).click();
      await range.filter({ hasText: "1–1 of 1" }).waitFor();
      assertEquals(new URL(page.url()).searchParams.get("status"), "false");
      assert(await row.isVisible());
      await page.getByRole("button", { name: "Reset" }).click();
      await range.filter({ hasText: "1–10 of 13" }).waitFor();
    });

    await t.step("delete asks 'Are you sure?'; Yes removes the row and lowers the total", async () => {
      await page.getByRole("searchbox").fill("Person");
      await range.filter({ hasText: "1–9 of 9" }).waitFor();
      await row.getByRole("button", { name: "Row actions" }).click();
      await page.getByRole("menuitem", { name: "Delete" }).click();
      const dialog = page.getByRole("alertdialog");
      await dialog.getByRole("heading", { name: MSG.areYouSure }).waitFor();
      await dialog.getByRole("button", { name: "No" }).click();
      await dialog.waitFor({ state: "hidden" });
      assert(await row.isVisible());

      await row.getByRole("button", { name: "Row actions" }).click();
      await page.getByRole("menuitem", { name: "Delete" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Yes" }).click();
      await page.getByTestId("notice").filter({ hasText: "User deleted successfully" }).waitFor();
      await row.waitFor({ state: "detached" });
      await range.filter({ hasText: "1–8 of 8" }).waitFor();
      const saved = await db.selectFrom("users").select("isDeleted").where("id", "=", target._id)
        .executeTakeFirstOrThrow();
      assertEquals(saved.isDeleted, 1);
    });

    await t.step("export downloads every matching row as CSV, not just the page", async () => {
      await page.getByRole("button", { name: "Clear search" }).click();
      await range.filter({ hasText: "1–10 of 12" }).waitFor();
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Export" }).click(),
      ]);
      assertMatch(download.suggestedFilename(), /^users-\d{4}-\d{2}-\d{2}\.csv$/);
      const text = await Deno.readTextFile((await download.path())!);
      const lines = text.replace(/^\uFEFF/, "").trim().split(/\r?\n/);
      assertEquals(lines[0], "First name,Last name,Email,Phone number,Role,Active,Created");
      assertEquals(lines.length, 1 + 12);
      assert(lines.some((l) => l.includes(admin.email)));
      assert(!lines.some((l) => l.includes(target.email)), "deleted users are not exported");
      assert(
        !lines.some((l) => l.includes("supplier-user@e2e.test")),
        "supplier logins are on their own tab",
      );

      // the same filters apply to the export
      await page.getByRole("searchbox").fill("Quill");
      await range.filter({ hasText: "1–3 of 3" }).waitFor();
      const [filtered] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Export" }).click(),
      ]);
      const rows = (await Deno.readTextFile((await filtered.path())!)).trim().split(/\r?\n/).slice(1);
      assertEquals(rows.length, 3);
      assert(rows.every((r) => r.includes("Quill")));
    });

    await t.step(
      "New User: schema messages on change, generated password, save goes back to the list",
      async () => {
        await page.getByRole("link", { name: "New User" }).click();
        await page.waitForURL("**/admin/user/add");
        await page.getByLabel("First name").fill("Al");
        await page.getByText(MSG.firstNameRequired).waitFor();
        await page.getByLabel("First name").fill("Alice");
        await page.getByText(MSG.firstNameRequired).waitFor({ state: "hidden" });
        await page.getByLabel("Last name").fill("Walker");
        await page.getByLabel("Email").fill("alice.walker@e2e.test");
        await page.getByLabel("Phone number").fill("+1 555 0100");
        // a supplier login needs an active supplier; there is none, which the picker says plainly,
        // with a way to add one
        await page.getByRole("combobox", { name: "Role" }).click();
        await page.getByRole("option", { name: "Supplier", exact: true }).click();
        await page.getByText("No active suppliers yet").waitFor();
        assertEquals(
          await page.getByRole("link", { name: "Add a supplier" }).getAttribute("href"),
          "/admin/supplier/add",
        );
        assertEquals(await page.getByText("once the suppliers area is live").count(), 0);
        await page.getByRole("combobox", { name: "Role" }).click();
        await page.getByRole("option", { name: "Manager", exact: true }).click();
        assertEquals(await page.getByText("No active suppliers yet").count(), 0);

        await page.getByRole("button", { name: "Generate" }).click();
        const password = await page.getByLabel(/^Password/).inputValue();
        assertMatch(password, /^[A-Za-z0-9]{10}$/);
        await context.grantPermissions(["clipboard-read", "clipboard-write"]);
        await page.getByRole("button", { name: "Copy password" }).click();
        await page.getByRole("button", { name: "Copied" }).waitFor();
        // bounded: a clipboard that does not answer fails this within seconds instead of hanging
        assertEquals(await readClipboard(page), password);
        await page.getByRole("button", { name: "Copy password" }).waitFor({ timeout: 3000 });

        await page.getByRole("button", { name: "Create user" }).click();
        await page.waitForURL((u) => u.pathname === "/admin/user");
        await page.getByTestId("notice").filter({ hasText: "User added successfully" }).waitFor();
        await page.getByRole("searchbox").fill("alice.walker");
        await range.filter({ hasText: "1–1 of 1" }).waitFor();
        assert(await grid.getByText("+1 555 0100").isVisible());
        // the new login works with the generated password
        const login = await fetch(`${server.url}/api/v1/admin/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "alice.walker@e2e.test", password }),
        });
        assertEquals(login.status, 200);
        await login.body?.cancel();
      },
    );

    await t.step("Edit keeps the password when left empty; a taken e-mail lands on its field", async () => {
      const alice = await db.selectFrom("users").select("id").where("email", "=", "alice.walker@e2e.test")
        .executeTakeFirstOrThrow();
      await grid.locator(`tr[data-row-id="${alice.id}"]`).getByRole("button", { name: "Row actions" })
        .click();
      await page.getByRole("menuitem", { name: "Edit" }).click();
      await page.waitForURL(`**/admin/user/${alice.id}/edit`);
      await page.getByRole("heading", { name: "Edit User" }).waitFor();
      assertEquals(await page.getByLabel("First name").inputValue(), "Alice");
      await page.getByLabel("Email").fill(admin.email);
      await page.getByRole("button", { name: "Save changes" }).click();
      // the 409's errors[].path lands under the e-mail field
      await page.locator("#field-email-message").filter({ hasText: "A user with this email already exists" })
        .waitFor();
      assertEquals(pathOf(page), `/admin/user/${alice.id}/edit`);

      await page.getByLabel("Email").fill("alice.walker@e2e.test");
      await page.getByLabel("Last name").fill("Walker-Smith");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.waitForURL((u) => u.pathname === "/admin/user");
      await page.getByTestId("notice").filter({ hasText: "User updated successfully" }).waitFor();
      const saved = await db.selectFrom("users").select("lastName").where("id", "=", alice.id)
        .executeTakeFirstOrThrow();
      assertEquals(saved.lastName, "Walker-Smith");
    });

    assertEquals(errors, []);
    await context.close();
    // sanity: the e2e password still signs the admin in (nothing above changed it)
    assert(E2E_PASSWORD.length >= 7);
  } finally {
    await browser.close();
    await server.close();
  }
}));

Deno.test(
  e2e("users: a large result shows 1,000+ until the exact count arrives, then the last page", async () => {
    const server = await startServer();
    const browser = await launchBrowser();
    const { db } = server.deps;
    try {
      const admin = await server.user("SUPERADMIN");
      const BULK = 1_205;
      for (let start = 0; start < BULK; start += 400) {
        await db.insertInto("users").values(
          Array.from({ length: Math.min(400, BULK - start) }, (_, k) => {
            const i = start + k;
            const at = new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString();
            return {
              id: `b${i.toString(16).padStart(23, "0")}`,
              firstName: `Bulk${i}`,
              lastName: "Loaded",
              email: `bulk${String(i).padStart(4, "0")}@e2e.test`,
              phoneNumber: "",
              role: "BDE",
              supplierId: null,
              passwordHash: "x",
              isActive: 1,
              isDeleted: 0,
              createdAt: at,
              updatedAt: at,
            };
          }),
        ).execute();
      }
      const { context, page, errors } = await newPage(browser, server.url);
      // hold the background count until the lower bound has been seen
      let release = () => {};
      const held = new Promise<void>((r) => (release = r));
      const counts: string[] = [];
      await page.route("**/api/v1/admin/users", async (route) => {
        const body = route.request().postData() ?? "";
        if (body.includes('"count":"exact"')) {
          counts.push(body);
          await held;
        }
        await route.continue();
      });
      await signIn(page, admin.email);
      const range = page.getByTestId("grid-range");
      const last = page.getByRole("button", { name: "Last page" });

      await page.goto(`${server.url}/admin/user?q=bulk`);
      await range.filter({ hasText: "1–10 of 1,000+" }).waitFor();
      await page.getByText("Page 1 of 100+").waitFor();
      assert(await last.isDisabled(), "no last page while only a lower bound is known");
      await page.getByRole("button", { name: "Next page" }).click();
      await range.filter({ hasText: "11–20 of 1,000+" }).waitFor();
      assertEquals(counts.length, 1, "one count per filter set, not per page");
      assert(!counts[0].includes('"sortBy"'), "the count ignores paging and order");

      release();
      await range.filter({ hasText: "11–20 of 1,205" }).waitFor();
      await page.getByText("Page 2 of 121").waitFor();
      await last.click();
      await range.filter({ hasText: "1,201–1,205 of 1,205" }).waitFor();
      assertEquals(new URL(page.url()).searchParams.get("page"), "121");
      const emails = await page.getByTestId("data-grid").locator("tbody tr[data-row-id]").allTextContents();
      assertEquals(emails.length, 5);
      assert(emails[4].includes("bulk0000@e2e.test"), "the oldest user ends the list");
      assert(emails[0].includes("bulk0004@e2e.test"));

      // a narrower search is counted exactly at once
      await page.getByRole("searchbox").fill("bulk011");
      await range.filter({ hasText: "1–10 of 10" }).waitFor();
      assertEquals(counts.length, 1, "no background count for an exact total");
      assertEquals(errors, []);
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  }),
);
