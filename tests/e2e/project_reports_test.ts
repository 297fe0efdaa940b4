/**
 * The project row's data in the built SPA, on a project with real respondent traffic through the
 * router: the toolbar's return links and the Redirects dialog come from the server (PUBLIC_URL, not
 * the browser's address), Prescreen Data downloads the answers as CSV, Security stats shows the
 * reasons, and the identifier and supplier reports download (Identifiers with a supplier choice).
 * The Redirects dialog shows the child's signing key masked until Show keys reveals it (logged).
 */
import * as v from "valibot";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { parseCsv } from "../helpers/master.ts";
import { ClientForm } from "../../shared/schemas/client.ts";
import { SupplierForm } from "../../shared/schemas/supplier.ts";
import { QuestionForm } from "../../shared/schemas/library.ts";
import { ChildProject, GroupProject, ProjectPatch, SupplierMapForm } from "../../shared/schemas/project.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { createClient } from "../../server/domain/clients/clients.ts";
import { createSupplier } from "../../server/domain/suppliers/suppliers.ts";
import { createQuestion } from "../../server/domain/library/questions.ts";
import type { Caller } from "../../server/domain/projects/projects.ts";
import { createChildProject, createGroupProject } from "../../server/domain/projects/create.ts";
import { updateProject } from "../../server/domain/projects/update.ts";
import { saveSupplierMap } from "../../server/domain/projects/supplier-maps.ts";
import { projectSecret } from "../../server/domain/router/config.ts";
import { maskSecret } from "../../shared/secrets.ts";
import type { Download, Page } from "playwright-core";
import { e2e, launchBrowser, newPage, signIn, startServer } from "./helpers.ts";
import { wallClock } from "../../server/domain/common/clock.ts";

const PUBLIC = "https://go.samplex.test";

async function csvOf(download: Download): Promise<string[][]> {
  return parseCsv(await Deno.readTextFile((await download.path())!)).filter((r) => r.length > 1);
}

async function downloadOf(page: Page, act: () => Promise<unknown>): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent("download"), act()]);
  return download;
}

Deno.test(
  e2e(
    "project row data: server-built return links, Prescreen Data CSV, Security stats, reports",
    async (t) => {
      const server = await startServer({ PUBLIC_URL: PUBLIC });
      const browser = await launchBrowser();
      const { deps } = server;
      const { db } = deps;
      try {
        const admin = await server.user("SUPERADMIN");
        const caller: Caller = { actor: SYSTEM_ACTOR, userId: admin._id, role: "SUPERADMIN" };
        const client = await createClient(
          { db, actor: SYSTEM_ACTOR, now: wallClock },
          v.parse(ClientForm, {
            clientName: "Harbor Insights",
            countryId: "US",
            clientEmail: "b@harbor.example",
          }),
        );
        const supplier = await createSupplier(
          { db, actor: SYSTEM_ACTOR, now: wallClock },
          v.parse(SupplierForm, {
            supplierType: 1,
            supplierName: "Panel Otters",
            supplierShortCode: "POTT",
            supplierEmail: "ops@otters.example",
            countryId: "US",
            supplierRuleCPI: "2|3",
            redirectComplete: "https://otters.example/c?sid=[sid]",
          }),
        );
        const parent = await createGroupProject(
          { db, now: wallClock, ...caller },
          v.parse(GroupProject, {
            projectName: "Coffee habits",
            clientId: client._id,
            userId: admin._id,
            averageLOI: 10,
            ir: 50,
          }),
        );
        const child = await createChildProject(
          { db, now: wallClock, ...caller },
          v.parse(ChildProject, {
            projectName: "Coffee habits US",
            parentProjectId: parent._id,
            clientId: client._id,
            countryId: "US",
            averageLOI: 10,
            ir: 50,
            sampleSize: 50,
            respondentClickQuota: 0,
            cpi: 3,
            startDate: "2026-11-01",
            endDate: "2026-12-01",
          }),
        );
        await updateProject({ ...deps, now: wallClock, ...caller }, {
          ...v.parse(ProjectPatch, {
            projectStatus: 1,
            singleLinkUrl: "https://survey.harbor.example/s?rid=[uid]",
            isPreScreen: true,
            isDynamicThanksUrl: true,
          }),
          id: child._id,
        });
        const { id: mapId } = await saveSupplierMap({ ...deps, actor: SYSTEM_ACTOR, now: wallClock }, {
          ...v.parse(SupplierMapForm, { projectId: child._id, supplierId: supplier._id, isPreScreen: true }),
          entryBase: PUBLIC,
        });
        const questions = [];
        for (
          const [title, options] of [["How often do you drink coffee?", ["Daily", "Weekly", "Never"]], [
            "Your favourite brew?",
            ["Espresso", "Filter"],
          ]] as const
        ) {
          questions.push(
            await createQuestion({ ...deps, actor: SYSTEM_ACTOR, now: wallClock }, {
              ...v.parse(QuestionForm, {
                questionTitle: { en: title },
                questionType: "RADIO",
                questionOption: options.map((o) => ({ title: o })),
              }),
              scope: { kind: "project", projectId: child._id },
            }),
          );
        }
        // three respondents answer the pre-screen, one comes twice (a duplicate)
        const router = deps.services.router;
        const uids: string[] = [];
        for (const [sid, often, brew] of [["r1", 0, 0], ["r2", 1, 1], ["r3", 0, 1]] as const) {
          const entered = await router.enter({
            mapId,
            sid,
            isTest: false,
            ip: `198.51.100.${uids.length + 1}`,
            userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0 Safari/537.36",
            headers: new Headers(),
          });
          assert(entered.kind === "routed" && entered.session.status === "prescreen");
          const answers = new Map([
            [`q_${questions[0]._id}`, [questions[0].questionOption[often]._id]],
            [`q_${questions[1]._id}`, [questions[1].questionOption[brew]._id]],
          ]);
          await router.answer(entered.session.id, (name) => answers.get(name) ?? []);
          uids.push(entered.session.id);
        }
        await router.enter({
          mapId,
          sid: "r1",
          isTest: false,
          ip: "198.51.100.9",
          userAgent: "",
          headers: new Headers(),
        });
        await router.idle();

        const { context, page, errors } = await newPage(browser, server.url);
        await signIn(page, admin.email);
        const grid = page.getByTestId("data-grid");
        const row = grid.locator(`tr[data-row-id="${parent._id}"]`);
        const rowAction = async (name: string) => {
          await row.getByRole("button", { name: "Row actions" }).click();
          await page.getByRole("menuitem", { name, exact: true }).click();
        };

        await t.step(
          "the toolbar's URL and Notify links are the server's (PUBLIC_URL), not this address",
          async () => {
            await page.goto("/admin/project");
            await row.waitFor();
            await page.getByRole("button", { name: "URL" }).click();
            await page.getByText(`${PUBLIC}/survey/end?status=c&uid=[uid]`, { exact: true }).waitFor();
            assertEquals(await page.getByText(server.url).count(), 0);
            await page.keyboard.press("Escape");
            await page.getByRole("button", { name: "Notify" }).click();
            await page.getByText(`${PUBLIC}/survey/postback?status=[status]&uid=[uid]`, { exact: true })
              .waitFor();
            await page.keyboard.press("Escape");
          },
        );

        await t.step(
          "Redirects: the server's signed links and, for an editor, the child's signing key",
          async () => {
            await row.getByRole("button", { name: `Redirects of ${parent.projectCode}` }).click();
            const dialog = page.getByRole("dialog", { name: "Redirects" });
            const rows = dialog.getByTestId("redirect-row");
            await rows.first().waitFor();
            assertEquals(await rows.count(), 5);
            assertEquals(
              (await rows.first().innerText()).replace(/\s+/g, " ").trim(),
              `Complete ${PUBLIC}/survey/end?status=c&uid=[uid]&sig=[sig]`,
            );
            const key = await projectSecret(db, child._id);
            await dialog.getByTestId("signing").getByText(child.projectCode, { exact: true }).waitFor();
            // the key shows masked, as client and supplier keys do; Show keys reveals it (logged)
            const field = dialog.getByLabel(`Signing key of ${child.projectCode}`, { exact: true });
            assertEquals(await field.inputValue(), maskSecret(key));
            assert(!(await page.content()).includes(key), "the page holds the key before the reveal");
            const revealed = () =>
              db.selectFrom("system_logs").select("activity").where("recordId", "=", child._id)
                .where("activity", "=", `Revealed the signing key of project ${child.projectCode}`).execute();
            assertEquals((await revealed()).length, 0);
            await dialog.getByRole("button", { name: "Show keys" }).click();
            await dialog.getByRole("button", { name: "Keys shown" }).waitFor();
            assertEquals(await field.inputValue(), key);
            assertEquals((await revealed()).length, 1);
            await dialog.getByRole("button", { name: "Close" }).last().click();
            await dialog.waitFor({ state: "detached" });
          },
        );

        await t.step("Prescreen Data: chosen questions and hash identifiers download as CSV", async () => {
          await rowAction("Prescreen Data");
          const dialog = page.getByRole("dialog", { name: "Prescreen Data" });
          const box = dialog.getByLabel("Hash identifiers");
          assert(Number(await box.getAttribute("rows")) >= 5, "at least 5 rows");
          // a typo is refused with the field's message
          await box.fill("not-a-uid");
          await dialog.getByText("Not a hash identifier: not-a-uid").waitFor();
          await box.fill(`${uids[2]}\n${uids[0]}`);
          await dialog.getByRole("button", { name: "Questions" }).click();
          await page.getByRole("checkbox", { name: "Q2. Your favourite brew?" }).click();
          await page.keyboard.press("Escape");
          const download = await downloadOf(
            page,
            () => dialog.getByRole("button", { name: "Download" }).click(),
          );
          assertEquals(download.suggestedFilename(), `${parent.projectCode}-prescreen.csv`);
          const rows = await csvOf(download);
          assertEquals(rows[0].slice(-2), ["Status", "Your favourite brew?"]);
          assertEquals(rows.slice(1).map((r) => [r[2], r[3], r.at(-1)]), [["r3", uids[2], "Filter"], [
            "r1",
            uids[0],
            "Espresso",
          ]]);
          await dialog.waitFor({ state: "detached" });

          // nothing chosen: everyone, every question
          await rowAction("Prescreen Data");
          const all = await downloadOf(page, () => dialog.getByRole("button", { name: "Download" }).click());
          const everyone = await csvOf(all);
          assertEquals(everyone[0].slice(-2), ["How often do you drink coffee?", "Your favourite brew?"]);
          assertEquals(everyone.slice(1).map((r) => r[2]), ["r1", "r2", "r3"]);
        });

        await t.step("Security stats: the duplicate shows among the reasons", async () => {
          await rowAction("Security");
          const dialog = page.getByRole("dialog", { name: "Security stats" });
          const totals = dialog.getByTestId("security-totals");
          await totals.waitFor();
          const tile = async (label: string) =>
            (await totals.locator("div").filter({
              has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }),
            })
              .locator("dd").first().innerText()).trim();
          assertEquals(await tile("Clicked"), "4");
          assertEquals(await tile("Security"), "1");
          assertEquals(await tile("Duplicate"), "1");
          assertEquals(await tile("IP address"), "0");
          await dialog.getByRole("row").filter({ hasText: "Panel Otters" }).waitFor();
          assertEquals(await dialog.getByTestId("client-link-failures").count(), 0);
          await page.keyboard.press("Escape");
          await dialog.waitFor({ state: "detached" });
        });

        await t.step(
          "Security stats: respondents an API client gave no link show with the last error",
          async () => {
            const now = new Date().toISOString();
            await db.insertInto("sessions").values({
              id: "f".repeat(24),
              projectId: child._id,
              parentProjectId: parent._id,
              clientId: client._id,
              supplierMapId: mapId,
              supplierId: supplier._id,
              sid: "api-1",
              status: "closed",
              reason: "client-api",
              detail: "the client's API answered HTTP 503",
              createdAt: now,
              updatedAt: now,
              endedAt: now,
            }).execute();
            await rowAction("Security");
            const dialog = page.getByRole("dialog", { name: "Security stats" });
            const failures = dialog.getByTestId("client-link-failures");
            await failures.waitFor();
            assertMatch(await failures.innerText(), /Client link failures: 1[\s\S]*HTTP 503/);
            await page.keyboard.press("Escape");
            await dialog.waitFor({ state: "detached" });
            // the reports below list the router's respondents only
            await db.deleteFrom("sessions").where("id", "=", "f".repeat(24)).execute();
          },
        );

        await t.step(
          "Export Data downloads the respondents' identifiers; Supplier Data the suppliers",
          async () => {
            const ids = await csvOf(await downloadOf(page, () => rowAction("Export Data")));
            assertEquals(ids[0].slice(0, 5), [
              "Project code",
              "Project name",
              "Supplier name",
              "Supplier identifier",
              "User identifier",
            ]);
            assertEquals(ids.slice(1).map((r) => `${r[3]}:${r[11]}`).sort(), [
              "r1:Duplicate",
              "r1:In Survey",
              "r2:In Survey",
              "r3:In Survey",
            ]);
            const maps = await csvOf(await downloadOf(page, () => rowAction("Supplier Data")));
            assertEquals(maps.length, 2);
            assertEquals(maps[1].slice(0, 2), [child.projectCode, "Panel Otters"]);
            assertMatch(maps[1][2], new RegExp(`^${PUBLIC}/survey/start/${mapId}\\?sid=\\[sid\\]$`));
          },
        );

        await t.step(
          "Identifiers downloads the project's respondents, of every supplier or of the one chosen",
          async () => {
            await rowAction("Identifiers");
            const dialog = page.getByRole("dialog", { name: "Identifiers" });
            await dialog.getByText("The suppliers mapped to the project.").waitFor();
            const all = await downloadOf(
              page,
              () => dialog.getByRole("button", { name: "Download" }).click(),
            );
            assertEquals(all.suggestedFilename(), `${parent.projectCode}-identifiers.csv`);
            const rows = await csvOf(all);
            assertEquals(rows[0], [
              "Project code",
              "Project name",
              "Supplier name",
              "Supplier identifier",
              "User identifier",
              "Start (UTC)",
              "End (UTC)",
              "Country",
              "IP address",
              "Device type",
              "Browser detail",
              "Status",
              "Reason",
            ]);
            const r1 = rows.find((r) => r[3] === "r1" && r[11] === "In Survey")!;
            assertEquals(r1.slice(0, 5), [
              child.projectCode,
              child.projectName,
              "Panel Otters",
              "r1",
              uids[0],
            ]);
            assertEquals(rows.slice(1).map((r) => `${r[3]}:${r[11]}`).sort(), [
              "r1:Duplicate",
              "r1:In Survey",
              "r2:In Survey",
              "r3:In Survey",
            ]);
            await dialog.waitFor({ state: "detached" });

            // one supplier's: chosen among the suppliers mapped to the project
            await rowAction("Identifiers");
            await dialog.getByText("The suppliers mapped to the project.").waitFor();
            await dialog.getByLabel("Supplier", { exact: true }).click();
            await page.getByRole("option", { name: "Panel Otters" }).click();
            const one = await downloadOf(
              page,
              () => dialog.getByRole("button", { name: "Download" }).click(),
            );
            assertEquals(one.suggestedFilename(), `${parent.projectCode}-Panel_Otters-identifiers.csv`);
            const own = await csvOf(one);
            assertEquals(own[0], rows[0]);
            assertEquals(own.length, 5);
            assert(own.slice(1).every((r) => r[2] === "Panel Otters"));
            await dialog.waitFor({ state: "detached" });
          },
        );

        await t.step("the Suppliers tab downloads one supplier's respondents", async () => {
          await page.goto(`/admin/project/child/${child._id}/edit?tab=suppliers`);
          const download = await downloadOf(
            page,
            () => page.getByRole("button", { name: "Download respondents of Panel Otters" }).click(),
          );
          assertEquals(download.suggestedFilename(), `${child.projectCode}-Panel_Otters-identifiers.csv`);
          const rows = await csvOf(download);
          assertEquals(rows.length, 5);
          assert(rows.slice(1).every((r) => r[2] === "Panel Otters"));
        });

        assertEquals(errors, []);
        await context.close();
      } finally {
        await browser.close();
        await server.close();
      }
    },
  ),
);
