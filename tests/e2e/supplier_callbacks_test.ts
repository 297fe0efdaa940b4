/**
 * Callbacks in the built SPA (issue 23, item 3): a supplier's portal user finds its delivery log on
 * the API page (state, answer), redelivers a delivered callback, and edits its callback URLs (an
 * internal address refused under its field, a public one saved).
 */
import * as v from "valibot";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { SupplierForm } from "../../shared/schemas/supplier.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { createSupplier } from "../../server/domain/suppliers/suppliers.ts";
import { wallClock } from "../../server/domain/common/clock.ts";
import { e2e, launchBrowser, newPage, signIn, startServer } from "./helpers.ts";

Deno.test(
  e2e("callbacks: the portal shows its delivery log, redelivers, and saves its callback URLs", async () => {
    const server = await startServer();
    const browser = await launchBrowser();
    const { db } = server.deps;
    try {
      const supplier = await createSupplier(
        { db, actor: SYSTEM_ACTOR, now: wallClock },
        v.parse(SupplierForm, {
          supplierType: 1,
          supplierName: "Panel Otters",
          supplierShortCode: "OTTR",
          supplierEmail: "ops@otters.example",
          countryId: "US",
          supplierRuleCPI: "1.5|2",
          supplierApprovedHook: "https://otters.example/cb?k=[key]",
        }),
      );
      const at = new Date().toISOString();
      const uid = "6b0800c0eae3715965879353";
      const row = await db.insertInto("router_hooks").values({
        sessionId: uid,
        supplierId: supplier._id,
        url: "https://otters.example/cb?k=[key]",
        status: "sent",
        attempts: 1,
        lastAnswer: "HTTP 200",
        event: "complete",
        hookKey: `${uid}-c`,
        vars: JSON.stringify({ uid, key: `${uid}-c` }),
        nextAt: at,
        createdAt: at,
        updatedAt: at,
      }).returning("id").executeTakeFirstOrThrow();
      const user = await server.user("SUPPLIER", { email: "otters@e2e.test", supplierId: supplier._id });
      const { page, errors } = await newPage(browser, server.url);
      await signIn(page, user.email);
      await page.getByRole("link", { name: "API" }).click();
      await page.waitForURL((u) => u.pathname === "/supplier/api");

      // the log: the delivered callback with its answer; Redeliver queues it again
      const log = page.getByTestId("callbacks");
      const line = log.locator(`tr[data-row-id="${row.id}"]`);
      await line.waitFor();
      const text = (await line.textContent()) ?? "";
      assert(text.includes("Delivered") && text.includes("HTTP 200") && text.includes(`${uid}-c`), text);
      await line.getByRole("button", { name: "Row actions" }).click();
      await page.getByRole("menuitem", { name: "Redeliver" }).click();
      await page.getByTestId("notice").getByText("Callback queued for redelivery").waitFor();
      const after = await db.selectFrom("router_hooks").select("redeliveries").where("id", "=", row.id)
        .executeTakeFirstOrThrow();
      assertEquals(after.redeliveries, 1);

      // the URLs: the signing secret masked, the complete's URL there; an internal address refused
      const urls = page.getByTestId("callback-urls");
      const secret = await urls.getByLabel("Signing secret", { exact: true }).inputValue();
      assertMatch(secret, /^•+[0-9a-f]{4}$/);
      assertEquals(
        await urls.getByLabel("Complete", { exact: true }).inputValue(),
        "https://otters.example/cb?k=[key]",
      );
      await urls.getByLabel("Terminate", { exact: true }).fill("http://10.1.2.3/t");
      await urls.getByRole("button", { name: "Save callback URLs" }).click();
      const msg = page.locator("#field-callbackTerminate-message");
      await msg.waitFor();
      assertMatch(
        (await msg.textContent()) ?? "",
        /^The server will not call this URL: 10\.1\.2\.3 is a private address/,
      );
      await urls.getByLabel("Terminate", { exact: true }).fill("https://otters.example/t?sid=[sid]");
      await urls.getByRole("button", { name: "Save callback URLs" }).click();
      await page.getByTestId("notice").getByText("Callback URLs saved").waitFor();
      const saved = await db.selectFrom("suppliers").select("callbackTerminate").where(
        "id",
        "=",
        supplier._id,
      )
        .executeTakeFirstOrThrow();
      assertEquals(saved.callbackTerminate, "https://otters.example/t?sid=[sid]");
      assertEquals(errors, []);
    } finally {
      await browser.close();
      await server.close();
    }
  }),
);
