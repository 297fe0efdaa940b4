/**
 * The approved hook on the supplier form: an address the server will not call is refused on save
 * with the rule under the field, and a stored hook the router refused shows why and since when.
 */
import * as v from "valibot";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { supplierBody } from "../helpers/master.ts";
import { SupplierForm } from "../../shared/schemas/supplier.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { createSupplier } from "../../server/domain/suppliers/suppliers.ts";
import { e2e, launchBrowser, newPage, signIn, startServer } from "./helpers.ts";
import { wallClock } from "../../server/domain/common/clock.ts";

Deno.test(
  e2e(
    "suppliers: an internal approved hook is refused under its field; a refused one shows on the form",
    async (t) => {
      const server = await startServer();
      const browser = await launchBrowser();
      const { db } = server.deps;
      try {
        const accountant = await server.user("ACCOUNTANT");
        const supplier = await createSupplier(
          { db, actor: SYSTEM_ACTOR, now: wallClock },
          v.parse(
            SupplierForm,
            supplierBody({ supplierApprovedHook: "https://panel.example/hook?uid=[uid]" }),
          ),
        );
        const { page, errors } = await newPage(browser, server.url);
        await signIn(page, accountant.email);

        await t.step("the form shows no refusal while there is none", async () => {
          await page.goto(`/admin/supplier/${supplier._id}/edit`);
          await page.getByRole("heading", { name: "Edit Supplier" }).waitFor();
          assertEquals(await page.getByTestId("hook-refusal").count(), 0);
        });

        await t.step(
          "saving the cloud metadata address is refused with the rule under the field",
          async () => {
            await page.getByLabel("Approved hook").fill("http://169.254.169.254/latest/meta-data/");
            await page.getByRole("button", { name: "Save changes" }).click();
            const msg = page.locator("#field-supplierApprovedHook-message");
            await msg.waitFor();
            assertMatch(
              (await msg.textContent()) ?? "",
              /^The server will not call this URL: 169\.254\.169\.254 is a link-local address/,
            );
            const row = await db.selectFrom("suppliers").select("supplierApprovedHook").where(
              "id",
              "=",
              supplier._id,
            )
              .executeTakeFirstOrThrow();
            assertEquals(row.supplierApprovedHook, "https://panel.example/hook?uid=[uid]");
          },
        );

        await t.step("a hook the router refused shows why and since when", async () => {
          await db.updateTable("suppliers").set({
            approvedHookRefusal: "hooks.example resolves to 10.0.0.7, which is a private address",
            approvedHookRefusedAt: "2026-11-20T09:30:00.000Z",
          }).where("id", "=", supplier._id).execute();
          await page.goto(`/admin/supplier/${supplier._id}/edit`);
          const box = page.getByTestId("hook-refusal");
          await box.waitFor();
          const text = (await box.textContent()) ?? "";
          assert(text.includes("the server refused this hook"), text);
          assert(text.includes("hooks.example resolves to 10.0.0.7, which is a private address"), text);
          assert(text.includes("2026"), text);
        });
        assertEquals(errors, []);
      } finally {
        await browser.close();
        await server.close();
      }
    },
  ),
);
