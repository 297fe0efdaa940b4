/** Support > System Logs in the browser: an update's changes listed one a line, old and new value. */
import { assert, assertEquals } from "../helpers/assert.ts";
import * as v from "valibot";
import { clientBody } from "../helpers/master.ts";
import { ClientForm, ClientUpdate } from "../../shared/schemas/client.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { createClient, updateClient } from "../../server/domain/clients/clients.ts";
import { e2e, launchBrowser, newPage, signIn, startServer } from "./helpers.ts";
import { wallClock } from "../../server/domain/common/clock.ts";

Deno.test(
  e2e("audit log: System Logs lists what an update changed, one change a line", async () => {
    const server = await startServer();
    const browser = await launchBrowser();
    const { db } = server.deps;
    try {
      const admin = await server.user("SUPERADMIN", { firstName: "Grace", lastName: "Hopper" });
      const client = await createClient(
        { db, actor: SYSTEM_ACTOR, now: wallClock },
        v.parse(ClientForm, clientBody({ clientName: "Acme Research", clientEmail: "ops@acme.example" })),
      );
      await updateClient({ db, actor: SYSTEM_ACTOR, now: wallClock }, {
        ...v.parse(
          ClientUpdate,
          clientBody({ clientName: "Acme Research Group", clientEmail: "ops@acme.example", netDays: 45 }),
        ),
        id: client._id,
      });
      const { context, page, errors } = await newPage(browser, server.url);
      await signIn(page, admin.email);
      await page.goto("/admin/support/log");
      const row = page.getByTestId("data-grid").locator("tbody tr[data-row-id]").filter({
        hasText: "Updated client Acme Research Group",
      });
      const changes = row.getByRole("list", { name: "Changes" });
      await changes.waitFor();
      const lines = await changes.getByRole("listitem").allInnerTexts();
      assertEquals(lines, [
        "Client name: Acme Research → Acme Research Group",
        "Net days: 30 days → 45 days",
      ]);
      assert(errors.length === 0, errors.join("\n"));
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
  }),
);
