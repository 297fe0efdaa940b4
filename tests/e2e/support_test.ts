/**
 * Support screens in the browser: identifier search (and its export), short codes, a job that runs,
 * the e-mail outbox.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { newId } from "../../server/db/ids.ts";
import { JobScheduler } from "../../server/domain/support/scheduler.ts";
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

Deno.test(
  e2e(
    "support: identifiers search, short codes, a scheduled job added runs and shows its last run",
    async (t) => {
      const server = await startServer();
      const browser = await launchBrowser();
      const { db } = server.deps;
      try {
        const admin = await server.user("SUPERADMIN", { firstName: "Grace", lastName: "Hopper" });
        const now = new Date().toISOString();
        const projectId = newId(), mapId = newId();
        const client = await createClient(
          { db, actor: SYSTEM_ACTOR, now: wallClock },
          v.parse(ClientForm, clientBody({ clientName: "Acme Research" })),
        );
        const supplier = await createSupplier(
          { db, actor: SYSTEM_ACTOR, now: wallClock },
          v.parse(SupplierForm, supplierBody({ supplierName: "Harbor Panel" })),
        );
        const clientId = client._id, supplierId = supplier._id;
        await db.insertInto("projects").values({
          id: projectId,
          projectType: PROJECT_TYPE.CHILD,
          projectCode: "77001-1",
          projectName: "Harbor shoppers",
          clientId,
          projectStatus: PROJECT_STATUS.LIVE,
          sampleSize: 2,
          complete: 2,
          createdAt: now,
          updatedAt: now,
          statusChangedAt: now,
        }).execute();
        for (let i = 1; i <= 3; i++) {
          await db.insertInto("sessions").values({
            id: newId(),
            projectId,
            parentProjectId: null,
            clientId,
            supplierMapId: mapId,
            supplierId,
            sid: `harbor-${i}`,
            status: i < 3 ? "complete" : "terminate",
            country: "US",
            ip: `10.0.0.${i}`,
            deviceType: "desktop",
            createdAt: now,
            updatedAt: now,
          }).execute();
        }
        const { context, page, errors } = await newPage(browser, server.url);
        await signIn(page, admin.email);
        const grid = page.getByTestId("data-grid");
        const bodyRows = grid.locator("tbody tr[data-row-id]");

        await t.step(
          "identifiers: a multi-line search finds the respondents, every column shown",
          async () => {
            await page.goto("/admin/support");
            await page.getByRole("heading", { name: "Support" }).waitFor();
            await page.getByLabel("Supplier or user identifiers, one per line").fill(
              "harbor-1\nharbor-3\nnobody",
            );
            await page.getByRole("button", { name: "Search" }).click();
            await page.getByTestId("grid-range").filter({ hasText: "of 2" }).waitFor();
            assertEquals(await bodyRows.count(), 2);
            for (
              const h of [
                "Project code",
                "Supplier identifier",
                "User identifier",
                "Browser detail",
                "Status",
              ]
            ) {
              assertEquals(await grid.getByRole("columnheader", { name: h }).count(), 1, h);
            }
            assert(await grid.getByRole("cell", { name: "harbor-3" }).isVisible());
            assert(await grid.getByRole("cell", { name: "Terminate" }).isVisible());
            const [download] = await Promise.all([
              page.waitForEvent("download"),
              page.getByRole("button", { name: /Export/ }).click(),
            ]);
            const text = await Deno.readTextFile((await download.path())!);
            assertEquals(text.trim().split(/\r?\n/).length, 3);
            assertMatch(text, /harbor-1/);
          },
        );

        await t.step("short codes list the router's placeholders", async () => {
          await page.getByRole("link", { name: "ShortCodes" }).click();
          await page.waitForURL("**/admin/support/shortcode");
          for (const code of ["[sid]", "[uid]", "[pid]", "[key]"]) {
            await page.getByRole("cell", { name: code, exact: true }).waitFor();
          }
        });

        await t.step("a job added runs on the scheduler and shows its last run", async () => {
          await page.getByRole("link", { name: "Scheduled Jobs" }).click();
          await page.waitForURL("**/admin/support/job");
          await page.getByRole("link", { name: "Add Schedule Job" }).click();
          await page.waitForURL("**/admin/support/job/add");
          await page.getByRole("button", { name: "Add job" }).click();
          await page.getByText("Project Code  is required").waitFor();
          await page.getByLabel("Project Code").fill("77001-1");
          await page.getByLabel("Interval (minutes)").fill("1");
          await page.getByRole("button", { name: "Add job" }).click();
          await page.getByText("Interval must be at least 2 minutes").waitFor();
          await page.getByLabel("Interval (minutes)").fill("2");
          await page.getByRole("button", { name: "Add job" }).click();
          await page.waitForURL("**/admin/support/job");
          await grid.getByRole("cell", { name: "Not run yet" }).waitFor();

          // the server's scheduler, two minutes on
          const scheduler = new JobScheduler(db, server.deps.log, {
            changes: server.deps.services.changes,
            now: () => Date.now() + 3 * 60_000,
          });
          const runs = await scheduler.tick();
          assertEquals(runs.length, 1);
          await page.reload();
          await grid.getByText("Paused 77001-1: 2 completes reached the sample size 2").waitFor();
          const p = await db.selectFrom("projects").select("projectStatus").where("id", "=", projectId)
            .executeTakeFirstOrThrow();
          assertEquals(p.projectStatus, PROJECT_STATUS.PAUSED);
        });

        await t.step(
          "E-mail: the outbox with states and the server's answer; view, cancel, resend",
          async () => {
            const at = (ms: number) => new Date(Date.now() - ms).toISOString();
            const mail = (id: string, to: string, status: string, extra: Record<string, unknown> = {}) => ({
              id,
              toAddress: to,
              subject: `Offer for ${to}`,
              bodyHtml: `<p>Hello, see <a href="https://go.samplex.test/o">the offer</a>.</p>`,
              bodyText: "Hello, see the offer (https://go.samplex.test/o).",
              status: status as "queued",
              attempts: 0,
              lastError: "",
              module: "E-mail",
              recordId: null,
              createdAt: at(60_000),
              updatedAt: at(60_000),
              sentAt: null,
              ...extra,
            });
            const queued = newId(), retrying = newId(), failed = newId(), sent = newId();
            await db.insertInto("email_outbox").values([
              mail(queued, "queued@panel.example", "queued"),
              mail(retrying, "later@panel.example", "failed", {
                attempts: 3,
                lastError: "421 4.3.2 Try again later",
              }),
              mail(failed, "gone@panel.example", "failed", {
                attempts: 1,
                lastError: "Refused for good: 550 5.1.1 No such user",
              }),
              mail(sent, "done@panel.example", "sent", { attempts: 1, sentAt: at(30_000) }),
            ]).execute();

            await page.getByRole("link", { name: "E-mail", exact: true }).click();
            await page.waitForURL("**/admin/support/email");
            await page.getByTestId("grid-range").filter({ hasText: "of 4" }).waitFor();
            const row = (id: string) => grid.locator(`tr[data-row-id="${id}"]`);
            assertMatch(
              (await row(retrying).textContent())!,
              /Retrying.*Next attempt.*3421 4\.3\.2 Try again later/,
            );
            assertMatch((await row(failed).textContent())!, /Failed.*550 5\.1\.1 No such user/);
            assertMatch((await row(queued).textContent())!, /queued@panel\.example.*Queued/);
            assertMatch((await row(sent).textContent())!, /Sent/);

            // the message, with its text part keeping the link's address
            await row(sent).getByRole("button", { name: "Row actions" }).click();
            await page.getByRole("menuitem", { name: "View message" }).click();
            const dialog = page.getByRole("dialog");
            await dialog.getByText("Hello, see the offer (https://go.samplex.test/o).").waitFor();
            assert(await dialog.locator("iframe[sandbox]").isVisible(), "the HTML part, sandboxed");
            await dialog.getByRole("button", { name: "Close" }).first().click();

            // cancel the queued one
            await row(queued).getByRole("button", { name: "Row actions" }).click();
            await page.getByRole("menuitem", { name: "Cancel" }).click();
            await page.getByRole("button", { name: "Cancel e-mail" }).click();
            await page.getByTestId("notice").filter({ hasText: "E-mail cancelled: it will not be sent" })
              .waitFor();
            await row(queued).getByText("Cancelled").waitFor();

            // resend the one refused for good: queued again, attempts afresh
            await row(failed).getByRole("button", { name: "Row actions" }).click();
            await page.getByRole("menuitem", { name: "Resend" }).click();
            await page.getByRole("button", { name: "Resend" }).click();
            await page.getByTestId("notice").filter({
              hasText: /1 e-mail queued: no mail server is configured/,
            }).waitFor();
            await row(failed).getByText("Queued").waitFor();
            const states = await db.selectFrom("email_outbox").select(["id", "status", "attempts"])
              .where("id", "in", [queued, failed]).execute();
            assertEquals(
              new Map(states.map((m) => [m.id, [m.status, m.attempts]])),
              new Map([[queued, ["cancelled", 0]], [failed, ["queued", 0]]]),
            );

            // only the states asked for
            await page.goto("/admin/support/email?state=retrying");
            await page.getByTestId("grid-range").filter({ hasText: "of 1" }).waitFor();
            assertEquals(await bodyRows.count(), 1);
          },
        );

        assertEquals(errors, []);
        await context.close();
      } finally {
        await browser.close();
        await server.close();
      }
    },
  ),
);
