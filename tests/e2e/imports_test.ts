/**
 * The external import pages in chromium (part 2, External import pages), over the providers'
 * stand-ins as the demo mounts them (labelled Sandbox): an API manager opens each provider tab and
 * sees its offers, Precision, Logit and Toluna filtered on their fixed country and Circle and UniMrkt
 * on none; opens the quota and qualification dialogs; adds an offer as a project ('This action will
 * create a new project', a client picked) and finds it in the projects list, and staff find it in
 * Projects External.
 */
import * as v from "valibot";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { startSandbox } from "../helpers/providers.ts";
import { createClient } from "../../server/domain/clients/clients.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { ClientForm } from "../../shared/schemas/client.ts";
import { PROVIDER_TABS } from "../../web/src/features/imports/imports.ts";
import { e2e, launchBrowser, newPage, pathOf, signIn, startServer } from "./helpers.ts";
import { wallClock } from "../../server/domain/common/clock.ts";

const OTHER_COUNTRIES = ["GB", "CA", "DE", "FR", "AU"];

Deno.test(
  e2e(
    "imports: each provider tab lists offers on its default country, opens quotas and qualifications, adds an offer as a project",
    async (t) => {
      const server = await startServer();
      const sb = await startSandbox();
      // the demo's stand-ins (SEED=demo mounts them under /sandbox): here on their own loopback port
      server.deps.services.providers = sb.registry({ sandbox: true });
      const browser = await launchBrowser();
      try {
        const client = await createClient(
          { db: server.deps.db, actor: SYSTEM_ACTOR, now: wallClock },
          v.parse(ClientForm, {
            clientName: "Harbor Light Research",
            countryId: "US",
            clientEmail: "b@x.example",
          }),
        );
        const apiManager = await server.user("APIMANAGER");
        const { page, errors } = await newPage(browser, server.url);
        await signIn(page, apiManager.email);

        const rowsOf = () =>
          page.locator("tbody tr").filter({ has: page.getByRole("button", { name: /^Quotas of/ }) });
        const countriesShown = async () => {
          const out = new Set<string>();
          const rows = rowsOf();
          for (let i = 0; i < await rows.count(); i++) {
            for (const c of [...OTHER_COUNTRIES, "US"]) {
              if (await rows.nth(i).getByRole("cell", { name: c, exact: true }).count()) out.add(c);
            }
          }
          return out;
        };

        for (const tab of PROVIDER_TABS) {
          await t.step(
            `${tab.label}: offers on ${
              tab.key === "circle" || tab.key === "mrkt" ? "no" : "its"
            } default country, quotas and qualifications`,
            async () => {
              await page.goto(tab.to);
              await page.getByTestId("sandbox-note").waitFor();
              await rowsOf().first().waitFor();
              assert(await rowsOf().count() > 0 && await rowsOf().count() <= 20, "a page of up to 20 offers");
              const country = page.getByRole("combobox", { name: "Country" });
              const shown = await countriesShown();
              if (tab.key === "circle" || tab.key === "mrkt") {
                assertEquals((await country.textContent())?.trim(), "Country: All");
                assert(OTHER_COUNTRIES.some((c) => shown.has(c)), `${tab.label} starts with every country`);
              } else {
                assertEquals((await country.textContent())?.trim(), "US");
                assertEquals([...shown], ["US"], `${tab.label} opens on US offers only`);
                assertEquals(
                  new URL(page.url()).searchParams.has("countryCode"),
                  false,
                  "the default is not written",
                );
                if (tab.key === "precision") {
                  // choosing none is a state of the URL too: an empty key, every country
                  await country.click();
                  await page.getByRole("option", { name: "Country: All" }).click();
                  await page.waitForURL((u) => u.searchParams.get("countryCode") === "");
                  await page.waitForFunction(
                    (cs) =>
                      [...document.querySelectorAll("tbody td")].some((td) =>
                        cs.includes(td.textContent ?? "")
                      ),
                    OTHER_COUNTRIES,
                  );
                  await page.reload();
                  await rowsOf().first().waitFor();
                  await country.filter({ hasText: "Country: All" }).waitFor();
                  assertEquals((await country.textContent())?.trim(), "Country: All");
                  await page.getByTestId("filters-reset").click();
                  await page.waitForURL((u) => !u.searchParams.has("countryCode"));
                  // the select shows the default again once the page has re-rendered from the URL
                  await country.filter({ hasText: /^\s*US\s*$/ }).waitFor();
                  assertEquals((await country.textContent())?.trim(), "US");
                }
              }

              const first = rowsOf().first();
              await first.getByRole("button", { name: /^Quotas of/ }).click();
              const quotas = page.getByRole("dialog");
              await quotas.getByRole("heading", { name: /^Quotas of / }).waitFor();
              await quotas.getByRole("button", { name: "Questions" }).waitFor();
              await page.keyboard.press("Escape");
              await quotas.waitFor({ state: "detached" });

              await first.getByRole("button", { name: /^Qualifications of/ }).click();
              const quals = page.getByRole("dialog");
              await quals.getByRole("heading", { name: /^Qualifications of / }).waitFor();
              await quals.getByText(/QuestionID|Question ID/).first().waitFor();
              await page.keyboard.press("Escape");
              await quals.waitFor({ state: "detached" });
            },
          );
        }

        let code = "", surveyId = "", title = "";
        await t.step(
          "an offer added as a project after 'This action will create a new project', a client picked",
          async () => {
            await page.goto("/admin/api");
            const row = rowsOf().first();
            await row.waitFor();
            title = (await row.locator("span.font-medium").first().textContent())!.trim();
            surveyId = (await row.getByRole("cell").nth(1).textContent())!.trim();
            await row.getByRole("button", { name: "Row actions" }).click();
            await page.getByRole("menuitem", { name: "Add as project" }).click();
            const dialog = page.getByRole("alertdialog").or(page.getByRole("dialog"));
            await dialog.getByText("This action will create a new project").waitFor();
            await dialog.getByRole("combobox", { name: "Client" }).click();
            await page.getByRole("option", { name: client.clientName }).click();
            await dialog.getByRole("button", { name: "Yes" }).click();
            await page.waitForURL((u) => /^\/admin\/project\/[^/]+\/childs$/.test(u.pathname));
            const group = await server.deps.db.selectFrom("projects").select([
              "id",
              "projectCode",
              "projectName",
            ])
              .where("projectType", "=", 1).executeTakeFirstOrThrow();
            assertEquals(pathOf(page), `/admin/project/${group.id}/childs`);
            assertEquals(group.projectName, title.slice(0, 200));
            code = group.projectCode;
            // back on the tab, the offer says where it went
            await page.goto("/admin/api");
            await page.getByText(new RegExp(`imported as `)).first().waitFor();
          },
        );

        await t.step("the project is in the projects list", async () => {
          await page.goto("/admin/project");
          await page.getByRole("cell", { name: new RegExp(code) }).first().waitFor();
          assert(await page.getByText(title).first().isVisible());
        });

        await t.step(
          "the Mappings tab shows the provider's answer links; a correction re-maps the import",
          async () => {
            await page.goto("/admin/api");
            // the tab beside the five provider tabs
            await page.getByRole("link", { name: "Mappings", exact: true }).click();
            await page.waitForURL((u) => u.pathname === "/admin/api/mappings");
            const row = page.locator("tbody tr").filter({ hasText: "Precision" }).filter({
              hasText: "ID 1001007",
            });
            await row.first().waitFor();
            assertMatch(await row.first().textContent() ?? "", /Female.*\(2000247\).*Female/);
            await row.first().getByRole("button", { name: "Row actions" }).click();
            await page.getByRole("menuitem", { name: "Edit mapping" }).click();
            const dialog = page.getByRole("dialog");
            await dialog.getByRole("heading", { name: /Mapping of Precision question 1001007/ }).waitFor();
            await dialog.getByRole("combobox", { name: "Library option of Female" }).click();
            await page.getByRole("option", { name: /^Unlinked/ }).click();
            await dialog.getByRole("button", { name: "Save mapping" }).click();
            await page.getByText(new RegExp(`Mapping of Precision question 1001007 saved; re-mapped ${code}`))
              .first()
              .waitFor();
            await dialog.waitFor({ state: "detached" });
            await row.filter({ hasText: "Unlinked" }).first().waitFor();
            const logged = await server.deps.db.selectFrom("system_logs").select("activity")
              .where("module", "=", "Api Projects").execute();
            assertEquals(logged.length, 1);
            assertMatch(logged[0].activity, /Female \(2000247\) -> unlinked \(was Female\)/);
          },
        );

        await t.step("staff find it in Projects External", async () => {
          const admin = await server.user("ADMIN");
          const other = await newPage(browser, server.url);
          await signIn(other.page, admin.email);
          await other.page.goto("/admin/project/fetch?provider=precision");
          const row = other.page.locator("tbody tr").filter({ hasText: surveyId });
          await row.first().waitFor();
          assertMatch(await row.first().textContent() ?? "", new RegExp(`imported as ${code}`));
          assertMatch(await row.first().textContent() ?? "", /Precision/);
          assertEquals(other.errors, []);
          await other.context.close();
        });
        assertEquals(errors, []);
      } finally {
        await browser.close();
        await sb.close();
        await server.close();
      }
    },
  ),
);
