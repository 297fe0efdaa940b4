/**
 * Projects External in chromium (part 1, 2.6, /admin/project/fetch), over the providers' stand-ins:
 * every configured provider's offers 20 a page with the page in `p`, the provider and clientdiy
 * filters, the quota and qualification dialogs showing question and answer texts, adding an offer
 * after 'This action will create a new project'; with no provider configured, the empty state saying
 * so and how to use the sandbox.
 */
import * as v from "valibot";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { startSandbox } from "../helpers/providers.ts";
import { createClient } from "../../server/domain/clients/clients.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { ProviderRegistry } from "../../server/providers/index.ts";
import { ClientForm } from "../../shared/schemas/client.ts";
import { e2e, launchBrowser, newPage, signIn, startServer } from "./helpers.ts";
import { wallClock } from "../../server/domain/common/clock.ts";

Deno.test(
  e2e(
    "Projects External: offers of every provider, filters, p, dialogs with texts, add, empty state",
    async (t) => {
      const server = await startServer();
      const sb = await startSandbox();
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
        const admin = await server.user("ADMIN");
        const { page, errors } = await newPage(browser, server.url);
        await signIn(page, admin.email);
        const rows = () =>
          page.locator("tbody tr").filter({ has: page.getByRole("button", { name: /^Quotas of/ }) });
        const providerCells = async () => {
          const out = new Set<string>();
          for (let i = 0; i < await rows().count(); i++) {
            out.add((await rows().nth(i).getByRole("cell").first().textContent())!.trim());
          }
          return out;
        };

        await t.step("every configured provider's offers, 20 a page, the page in p", async () => {
          await page.goto("/admin/project/fetch");
          await page.getByTestId("sandbox-note").waitFor();
          await rows().first().waitFor();
          assertEquals(await rows().count(), 20);
          await page.getByTestId("grid-range").filter({ hasText: /^1–20 of \d+/ }).waitFor();
          await page.getByRole("button", { name: "Next page" }).click();
          await page.waitForURL((u) => u.searchParams.get("p") === "2");
          await page.getByTestId("grid-range").filter({ hasText: /^21–40 of/ }).waitFor();
          await page.goto("/admin/project/fetch?p=3");
          await page.getByTestId("grid-range").filter({ hasText: /^41–60 of/ }).waitFor();
          const all = new Set<string>();
          for (const p of [1, 4, 8]) {
            await page.goto(`/admin/project/fetch?p=${p}`);
            await rows().first().waitFor();
            for (const c of await providerCells()) {
              all.add(c);
            }
          }
          assert(all.size >= 3, `offers of several providers: ${[...all]}`);
        });

        await t.step("the provider filter narrows to one provider", async () => {
          await page.goto("/admin/project/fetch");
          await page.getByRole("button", { name: "Provider" }).or(
            page.getByRole("combobox", { name: "Provider" }),
          ).first()
            .click();
          await page.getByRole("checkbox", { name: "Logit" }).click();
          await page.keyboard.press("Escape");
          await page.waitForURL((u) => u.searchParams.getAll("provider").join(",").includes("logit"));
          await page.waitForFunction(() =>
            [...document.querySelectorAll("tbody tr")].every((r) =>
              r.querySelector("td")?.textContent === "Logit"
            )
          );
          assertEquals([...await providerCells()], ["Logit"]);
        });

        await t.step("quota and qualification dialogs show question and answer texts", async () => {
          // Logit's quotas come on their own call, through Projects External's
          await rows().first().getByRole("button", { name: /^Quotas of/ }).click();
          const quotas = page.getByRole("dialog");
          await quotas.getByRole("heading", { name: /^Quotas of / }).waitFor();
          const drill = quotas.getByTestId("quota-drill");
          await drill.locator("li li").first().waitFor();
          const line = (await drill.locator("li li").first().textContent())!;
          // "Question <id> (<its name>): <answer texts>", not the ids again
          const m = line.match(/^Question (\S+) \((.+)\): (.+)$/);
          assert(m, line);
          assert(m[2] !== m[1], `the question is named: ${line}`);
          await page.keyboard.press("Escape");
          await quotas.waitFor({ state: "detached" });

          await page.goto("/admin/project/fetch?provider=precision");
          await rows().first().waitFor();
          // the title cell carries the survey id as "(id)" (the ID column is in the column chooser)
          const title = (await rows().first().getByRole("cell").filter({ hasText: /\(\S+\)/ }).first()
            .textContent())!;
          const surveyId = /\((\S+?)\)/.exec(title)![1];
          const offer = (await sb.adapter("precision").getOffer(surveyId))!;
          const q = offer.qualifications.find((x) => x.answers.some((a, i) => a !== x.answerIds[i]))!;
          await rows().first().getByRole("button", { name: /^Qualifications of/ }).click();
          const quals = page.getByRole("dialog");
          const row = quals.locator("tbody tr").filter({ hasText: q.questionId }).first();
          await row.waitFor();
          assertMatch((await row.textContent())!, new RegExp(q.name));
          const text = q.answers.find((a, i) => a !== q.answerIds[i])!;
          assertMatch((await row.textContent())!, new RegExp(text));
          await page.keyboard.press("Escape");
          await quals.waitFor({ state: "detached" });
        });

        await t.step(
          "clientdiy chooses the client; adding asks 'This action will create a new project'",
          async () => {
            await page.goto("/admin/project/fetch?provider=precision");
            await page.getByRole("combobox", { name: "Client" }).click();
            await page.getByRole("option", { name: client.clientName }).click();
            await page.waitForURL((u) => u.searchParams.get("clientdiy") === client._id);
            const row = rows().first();
            await row.waitFor();
            const surveyId = /\((\S+?)\)/.exec(
              (await row.getByRole("cell").filter({ hasText: /\(\S+\)/ }).first().textContent())!,
            )![1];
            await row.getByRole("button", { name: "Row actions" }).click();
            await page.getByRole("menuitem", { name: "Add as project" }).click();
            const dialog = page.getByRole("alertdialog").or(page.getByRole("dialog"));
            await dialog.getByText("This action will create a new project").waitFor();
            // the client of the filter is already chosen (its name shows once the picker's options load)
            const chosen = dialog.getByRole("combobox", { name: "Client" });
            await chosen.filter({ hasText: client.clientName }).waitFor();
            assertEquals((await chosen.textContent())?.trim(), client.clientName);
            await dialog.getByRole("button", { name: "Yes" }).click();
            await page.waitForURL((u) => /^\/admin\/project\/[^/]+\/childs$/.test(u.pathname));
            const imported = await server.deps.db.selectFrom("offer_imports").select(["provider", "surveyId"])
              .executeTakeFirstOrThrow();
            assertEquals([imported.provider, imported.surveyId], ["precision", surveyId]);
            await page.goto(`/admin/project/fetch?provider=precision&clientdiy=${client._id}`);
            await rows().filter({ hasText: surveyId }).getByText(/imported as /).waitFor();
          },
        );

        await t.step("no provider configured: the page says so and how to use the sandbox", async () => {
          server.deps.services.providers = new ProviderRegistry([]);
          await page.goto("/admin/project/fetch");
          await page.getByRole("heading", { name: "No provider configured" }).waitFor();
          assertMatch(
            (await page.getByTestId("sandbox-howto").textContent())!,
            /SEED=demo.*\/sandbox\/<provider>/s,
          );
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
