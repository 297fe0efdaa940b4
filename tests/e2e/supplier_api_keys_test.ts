/**
 * API keys in the built SPA (issue 23): a supplier's portal user opens the API page, creates a key
 * (shown once, copied with one click, with the warning), finds it in the list without the key, the key
 * opens /supply/v1, renames it and revokes it after a confirm, and the key is refused at once. Staff
 * see the same keys on the supplier's edit page.
 */
import * as v from "valibot";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { SupplierForm } from "../../shared/schemas/supplier.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { createSupplier } from "../../server/domain/suppliers/suppliers.ts";
import { wallClock } from "../../server/domain/common/clock.ts";
import { SUPPLY_BASE } from "../../shared/api/supply.ts";
import { e2e, launchBrowser, newPage, pathOf, readClipboard, signIn, startServer } from "./helpers.ts";

Deno.test(
  e2e(
    "API keys: the portal creates one (shown once, copied), renames and revokes it; staff see it",
    async () => {
      const server = await startServer();
      const browser = await launchBrowser();
      try {
        const supplier = await createSupplier(
          { db: server.deps.db, actor: SYSTEM_ACTOR, now: wallClock },
          v.parse(SupplierForm, {
            supplierType: 1,
            supplierName: "Panel Badgers",
            supplierShortCode: "BADG",
            supplierEmail: "ops@badgers.example",
            countryId: "US",
            supplierRuleCPI: "1.5|2",
          }),
        );
        const user = await server.user("SUPPLIER", { email: "badgers@e2e.test", supplierId: supplier._id });
        const supply = async (key: string) => {
          const r = await fetch(`${server.url}${SUPPLY_BASE}/questions`, { headers: { "X-Api-Key": key } });
          await r.body?.cancel();
          return r.status;
        };

        const { context, page, errors } = await newPage(browser, server.url);
        try {
          await context.grantPermissions(["clipboard-read", "clipboard-write"]);
          await signIn(page, user.email);
          await page.getByRole("link", { name: "API" }).click();
          await page.waitForURL((u) => u.pathname === "/supplier/api");
          const panel = page.getByTestId("api-keys");
          // the record's key is the supplier's first one
          await panel.getByTestId("api-key-row").filter({ hasText: "Initial key" }).waitFor();

          // create: a name is required, then the key is shown once with the warning
          await panel.getByRole("button", { name: "Create key" }).click();
          const dialog = page.getByRole("dialog");
          await dialog.getByRole("button", { name: "Create key" }).click();
          await dialog.getByText("Key name is required").waitFor();
          await dialog.getByLabel("Name").fill("Production");
          await dialog.getByRole("button", { name: "Create key" }).click();
          await dialog.getByText("it will not be shown again").waitFor();
          const shown = await dialog.getByLabel("API key", { exact: true }).inputValue();
          assertMatch(shown, /^spx_[A-Za-z0-9_-]{43}$/);
          await dialog.getByRole("button", { name: "Copy API key" }).click();
          assertEquals(await readClipboard(page), shown);
          await dialog.getByRole("button", { name: "Done" }).click();
          await dialog.waitFor({ state: "detached" });

          const row = panel.getByTestId("api-key-row").filter({ hasText: "Production" });
          await row.getByText("Active").waitFor();
          await row.getByText(`${shown.slice(0, 12)}…`).waitFor();
          assert(!(await page.content()).includes(shown), "the key stays on the page after the dialog");
          assertEquals(await supply(shown), 200);

          // rename
          await row.getByRole("button", { name: "Rename" }).click();
          await dialog.getByLabel("Name").fill("Production EU");
          await dialog.getByRole("button", { name: "Save" }).click();
          const renamed = panel.getByTestId("api-key-row").filter({ hasText: "Production EU" });
          await renamed.waitFor();

          // revoke asks first; Cancel keeps it working
          await renamed.getByRole("button", { name: "Revoke" }).click();
          await dialog.getByRole("button", { name: "Cancel" }).click();
          await dialog.waitFor({ state: "detached" });
          assertEquals(await supply(shown), 200);
          await renamed.getByRole("button", { name: "Revoke" }).click();
          await dialog.getByRole("button", { name: "Revoke key" }).click();
          await renamed.getByText("Revoked").waitFor();
          assert(await renamed.getByRole("button", { name: "Revoke" }).isDisabled());
          assertEquals(await supply(shown), 401);

          // the supply API's reference: each call opens onto its curl example, naming this server
          const reference = page.getByRole("region", { name: "Reference" });
          const questions = reference.getByTestId("api-operation").filter({ hasText: "/questions" });
          await questions.getByRole("button").first().click();
          const curl = await questions.getByTestId("code-sample").innerText();
          assert(curl.includes(`-H "X-Api-Key: $KEY"`), curl);
          assert(curl.includes(`${server.url}${SUPPLY_BASE}/questions`), curl);
          assertEquals(errors, []);
        } finally {
          await context.close();
        }

        // staff: the same keys on the supplier's edit page
        const admin = await server.user("ADMIN");
        const staff = await newPage(browser, server.url);
        try {
          await signIn(staff.page, admin.email);
          await staff.page.goto(`/admin/supplier/${supplier._id}/edit`);
          assertEquals(pathOf(staff.page), `/admin/supplier/${supplier._id}/edit`);
          const panel = staff.page.getByTestId("api-keys");
          const row = panel.getByTestId("api-key-row").filter({ hasText: "Production EU" });
          await row.getByText("Revoked").waitFor();
          assertEquals(staff.errors, []);
        } finally {
          await staff.context.close();
        }
      } finally {
        await browser.close();
        await server.close();
      }
    },
  ),
);
