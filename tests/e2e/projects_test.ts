/**
 * The Projects screens in the built SPA against the real API: a group project, a child with a
 * quota and a supplier map, every child tab, clone, close with a PO number and the Logs timeline.
 */
import { Buffer } from "node:buffer";
import * as v from "valibot";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { MSG } from "../../shared/messages.ts";
import { ClientForm } from "../../shared/schemas/client.ts";
import { SupplierForm } from "../../shared/schemas/supplier.ts";
import { QualificationForm, QuestionForm } from "../../shared/schemas/library.ts";
import { ChildProject } from "../../shared/schemas/project.ts";
import { createClient } from "../../server/domain/clients/clients.ts";
import { createSupplier } from "../../server/domain/suppliers/suppliers.ts";
import { createQualification } from "../../server/domain/library/qualifications.ts";
import { createQuestion, TEMP } from "../../server/domain/library/questions.ts";
import { createChildProject } from "../../server/domain/projects/create.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { e2e, launchBrowser, newPage, pathOf, signIn, startServer } from "./helpers.ts";
import { wallClock } from "../../server/domain/common/clock.ts";

const pad = (n: number) => String(n).padStart(2, "0");
const ddmmyyyy = (d: Date) => `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
const csv = (name: string, lines: string[]) => ({
  name,
  mimeType: "text/csv",
  buffer: Buffer.from(lines.join("\n") + "\n"),
});

/** Retries an assertion until it holds (mail and saves land in the background). */
async function eventually(check: () => Promise<void>, timeoutMs = 5_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

Deno.test(e2e("projects: group and child projects, every child tab, clone, close and logs", async (t) => {
  const server = await startServer();
  const browser = await launchBrowser();
  const { db } = server.deps;
  try {
    const admin = await server.user("SUPERADMIN");
    const client = await createClient(
      { db, actor: SYSTEM_ACTOR, now: wallClock },
      v.parse(ClientForm, {
        clientName: "Northwind Research",
        countryId: "US",
        clientEmail: "buy@nw.example",
      }),
    );
    const supplier = await createSupplier(
      { db, actor: SYSTEM_ACTOR, now: wallClock },
      v.parse(SupplierForm, {
        supplierType: 1,
        supplierName: "Panel Bees",
        supplierShortCode: "PBEE",
        supplierEmail: "ops@bees.example",
        countryId: "GB",
        supplierRuleCPI: "2.5|3.4",
        // its own return links for two outcomes: a new map of it starts with them
        redirectTerminate: "https://bees.example/t?sid=[sid]",
        redirectQuotaFull: "https://bees.example/q?sid=[sid]",
      }),
    );
    await createQualification(
      { db, actor: SYSTEM_ACTOR, now: wallClock },
      v.parse(QualificationForm, {
        qualificationName: "Gender",
        qualificationIcon: "users",
        qualificationOptions: [{ text: "Female" }, { text: "Male" }, { text: "Other" }],
      }),
    );
    await createQuestion({ ...server.deps, actor: SYSTEM_ACTOR, now: wallClock }, {
      ...v.parse(QuestionForm, {
        questionTitle: { en: "Do you own a car?" },
        questionType: "RADIO",
        questionOption: [{ title: "Yes" }, { title: "No" }],
      }),
      scope: TEMP,
    });

    const { context, page, errors } = await newPage(browser, server.url);
    await signIn(page, admin.email);
    const grid = page.getByTestId("data-grid");
    /** Runs `act` and waits for the notice it causes: a new one (each notice is a new element). */
    const noticeAfter = async (act: () => Promise<unknown>, text: string) => {
      // the notice on screen now (or null), read at once: a timed lookup could miss it under load and
      // let the previous save's notice pass for this one
      const before = await page.evaluateHandle(() => document.querySelector("[data-testid=notice]"));
      await act();
      await page.waitForFunction(([old, want]) => {
        const el = document.querySelector("[data-testid=notice]");
        return !!el && el !== old && (el.textContent ?? "").includes(want as string);
      }, [before, text] as const);
    };
    const project = async (code: string) =>
      await db.selectFrom("projects").selectAll().where("projectCode", "=", code).executeTakeFirstOrThrow();
    let parentId = "";
    let childId = "";

    await t.step("Add Project: the group form's rules, then a new project in the list", async () => {
      await page.goto("/admin/project");
      await page.getByRole("heading", { name: "Projects" }).waitFor();
      await grid.getByText(MSG.noRows, { exact: true }).waitFor();
      await page.getByRole("link", { name: "Add Project" }).click();
      await page.waitForURL("**/admin/project/add");
      // the manager defaults to the signed-in user; Secured Url starts at yes; status at Awarded (2)
      await page.getByRole("combobox", { name: "Project manager" }).filter({ hasText: admin.fullName })
        .waitFor();
      assertEquals(await page.getByRole("radio", { name: "Yes" }).getAttribute("aria-checked"), "true");
      assert(
        await page.getByRole("combobox", { name: "Project status" }).filter({ hasText: "Awarded" })
          .isVisible(),
      );
      await page.getByRole("button", { name: "Create project" }).click();
      await page.getByText(MSG.projectNameRequired).waitFor();
      assert(await page.getByText(MSG.clientRequired).isVisible());
      await page.getByLabel("Project name").fill("Car owners tracker");
      await page.getByRole("combobox", { name: "Client" }).click();
      await page.getByRole("option", { name: "Northwind Research" }).click();
      await page.getByLabel("Average LOI").fill("1O");
      await page.getByText(MSG.onlyDigits).waitFor();
      await page.getByLabel("Average LOI").fill("10");
      await page.getByRole("textbox", { name: "IR", exact: true }).fill("40");
      // status Closed (6) needs a PO number
      await page.getByRole("combobox", { name: "Project status" }).click();
      await page.getByRole("option", { name: "Closed" }).click();
      await page.getByRole("button", { name: "Create project" }).click();
      await page.getByText(MSG.poNumberRequired).waitFor();
      await page.getByRole("combobox", { name: "Project status" }).click();
      await page.getByRole("option", { name: "Live" }).click();
      // the click inside: the save runs at the click, its notice can come before a later look
      await noticeAfter(
        async () => {
          await page.getByRole("button", { name: "Create project" }).click();
          await page.waitForURL((u) => u.pathname === "/admin/project");
        },
        "Project added successfully",
      );
      await grid.getByText("Car owners tracker").waitFor();
      const p = await db.selectFrom("projects").selectAll().where("projectName", "=", "Car owners tracker")
        .executeTakeFirstOrThrow();
      assertEquals([p.projectType, p.projectStatus, p.userId, p.isDynamicThanksUrl], [1, 1, admin._id, 1]);
      parentId = p.id;
    });

    await t.step("Add Project (child): defaults, zip codes from a CSV, then the child grid", async () => {
      // a group without children: the grid's contract text
      await page.goto(`/admin/project/${parentId}/childs`);
      await grid.getByText(MSG.noRows, { exact: true }).waitFor();
      await page.goto("/admin/project");
      const row = grid.locator(`tr[data-row-id="${parentId}"]`);
      await row.getByRole("button", { name: "Row actions" }).click();
      await page.getByRole("menuitem", { name: "Add Project" }).click();
      await page.waitForURL(`**/admin/project/child/${parentId}/add`);
      const today = new Date();
      const later = new Date(today.getFullYear(), today.getMonth() + 1, today.getDate());
      if (later.getDate() !== today.getDate()) later.setDate(0);
      assertEquals(await page.getByLabel("Start date", { exact: true }).inputValue(), ddmmyyyy(today));
      assertEquals(await page.getByLabel("End date", { exact: true }).inputValue(), ddmmyyyy(later));
      assertEquals(await page.getByLabel("Respondent test click quota").inputValue(), "5");
      // the language list loads with the form: wait for the default to show, do not sample it once
      await page.getByRole("combobox", { name: "Language" }).filter({ hasText: "English" }).waitFor();
      const clientSelect = page.getByRole("combobox", { name: "Client" });
      assert(await clientSelect.isDisabled());
      await clientSelect.filter({ hasText: "Northwind Research" }).waitFor();
      await page.getByRole("button", { name: "Create child project" }).click();
      await page.getByText(MSG.projectNameRequired).waitFor();
      assert(await page.getByText("Country  is required").isVisible());
      await page.getByLabel("Project name").fill("Car owners US");
      await page.getByRole("combobox", { name: "Country" }).click();
      await page.getByRole("option", { name: "United States", exact: true }).click();
      await page.getByLabel("Upload zip codes CSV").setInputFiles(
        csv("zips.csv", ["10001", "10002", "94105"]),
      );
      await page.getByTestId("zip-count").filter({ hasText: "3 zip codes uploaded" }).waitFor();
      await page.getByRole("button", { name: "Clear" }).click();
      await page.getByTestId("zip-count").filter({ hasText: "No zip codes" }).waitFor();
      await page.getByLabel("Upload zip codes CSV").setInputFiles(csv("zips.csv", ["10001", "94105"]));
      await page.getByTestId("zip-count").filter({ hasText: "2 zip codes uploaded" }).waitFor();
      await page.getByLabel("Sample size").fill("100");
      await page.getByRole("textbox", { name: "Respondent click quota", exact: true }).fill("500");
      await page.getByLabel("CPI").fill("2.5");
      // the click inside: the save runs at the click, its notice can come before a later look
      await noticeAfter(
        async () => {
          await page.getByRole("button", { name: "Create child project" }).click();
          await page.waitForURL(`**/admin/project/${parentId}/childs`);
        },
        "Child project added successfully",
      );
      const c = await db.selectFrom("projects").selectAll().where("parentProjectId", "=", parentId)
        .executeTakeFirstOrThrow();
      assertEquals([c.countryId, c.languageId, c.respondentTestClickQuota, c.zipCodes], [
        "US",
        "en",
        5,
        JSON.stringify(["10001", "94105"]),
      ]);
      childId = c.id;
      const row2 = grid.locator(`tr[data-row-id="${childId}"]`);
      await row2.getByText("United States").waitFor();
      // the click quota is edited in place and saved on Enter
      const quota = row2.getByLabel(`Respondent click quota of ${c.projectCode}`);
      await noticeAfter(async () => {
        await quota.fill("750");
        await quota.press("Enter");
      }, "Project updated successfully");
      assertEquals((await project(c.projectCode)).respondentClickQuota, 750);
      // a child's status menu offers Live and Paused only
      await row2.getByRole("button", { name: /Change status/ }).click();
      const items = await page.getByRole("menuitem").allTextContents();
      assertEquals(items, ["Live", "Paused"]);
      await noticeAfter(
        () => page.getByRole("menuitem", { name: "Live" }).click(),
        "Project updated successfully",
      );
      assertEquals((await project(c.projectCode)).projectStatus, 1);
      // the row action Edit Status offers the same choice, as radios: a choice, then a confirm
      await row2.getByRole("button", { name: "Row actions" }).click();
      await page.getByRole("menuitem", { name: "Edit Status" }).click();
      const statusDialog = page.getByRole("dialog", { name: "Edit Status" });
      const choice = statusDialog.getByRole("radiogroup", { name: "New status" });
      assertEquals(await choice.getByRole("radio").count(), 1);
      await choice.getByRole("radio", { name: "Paused", exact: true }).waitFor();
      assertEquals(await choice.getByRole("radio", { checked: true }).count(), 0);
      const confirm = statusDialog.getByRole("button", { name: "Change status" });
      assert(await confirm.isDisabled());
      // Enter on the focused first status chooses nothing and changes nothing
      await choice.getByRole("radio", { name: "Paused" }).and(page.locator(":focus")).waitFor();
      await page.keyboard.press("Enter");
      await page.waitForTimeout(300);
      assert(await statusDialog.isVisible());
      assert(await confirm.isDisabled());
      assertEquals((await project(c.projectCode)).projectStatus, 1);
      // Cancel leaves the status as it was
      await statusDialog.getByRole("button", { name: "Cancel" }).click();
      await statusDialog.waitFor({ state: "detached" });
      assertEquals((await project(c.projectCode)).projectStatus, 1);
      await row2.getByRole("button", { name: "Row actions" }).click();
      await page.getByRole("menuitem", { name: "Edit Status" }).click();
      await choice.getByRole("radio", { name: "Paused" }).click();
      assert(await confirm.isEnabled());
      await noticeAfter(() => confirm.click(), "Project updated successfully");
      await statusDialog.waitFor({ state: "detached" });
      assertEquals((await project(c.projectCode)).projectStatus, 3);
      await row2.getByRole("button", { name: /Paused\. Change status/ }).waitFor();
    });

    await t.step("Edit Child Project: quota, URLs and securities tabs", async () => {
      const c = await db.selectFrom("projects").selectAll().where("id", "=", childId)
        .executeTakeFirstOrThrow();
      await grid.getByRole("link", { name: c.projectCode }).click();
      await page.waitForURL(`**/admin/project/child/${childId}/edit`);
      await page.getByRole("tab", { name: "Project Information" }).waitFor();
      assert(await page.getByRole("combobox", { name: "Language" }).isDisabled());

      // quota: a qualification, two options, sizes that must add up to the sample size (100)
      await page.getByRole("tab", { name: "Project Quota" }).click();
      await page.getByRole("combobox", { name: "Qualification" }).click();
      await page.getByRole("option", { name: "Gender" }).click();
      await noticeAfter(
        () => page.getByRole("button", { name: "Add quota" }).click(),
        "Quota added successfully",
      );
      // an option is chosen on the server, then shown checked with its size field
      await page.getByLabel("Female").click();
      await page.getByLabel("Quota size of Female").waitFor();
      await page.getByLabel("Male", { exact: true }).click();
      await page.getByLabel("Quota size of Male").waitFor();
      await page.getByLabel("Quota size of Female").fill("60");
      await page.getByLabel("Quota size of Male").fill("30");
      const total = page.getByTestId("quota-total");
      assertEquals(await total.getAttribute("data-matches"), "false");
      assertMatch(await total.getAttribute("class") ?? "", /text-destructive/);
      await page.getByRole("row", { name: /Female/ }).getByText("60.00%").waitFor();
      await page.getByLabel("Quota size of Male").fill("40");
      assertEquals(await total.getAttribute("data-matches"), "true");
      await noticeAfter(() => page.getByRole("button", { name: "Save sizes" }).click(), "Quota sizes saved");
      const q = await db.selectFrom("project_quotas").selectAll().where("projectId", "=", childId)
        .executeTakeFirstOrThrow();
      assertEquals(JSON.parse(q.quotaValue).map((x: { quotaSize: number }) => x.quotaSize), [60, 40]);

      // URLs: the [uid] rule, then multi-link from a CSV
      await page.getByRole("tab", { name: "Project URLs" }).click();
      await page.getByLabel("Live URL").fill("https://survey.example.com/s/1");
      await page.getByRole("button", { name: "Save URLs" }).click();
      await page.getByText(MSG.invalidUrl).waitFor();
      await page.getByLabel("Live URL").fill("https://survey.example.com/s/1?uid=[uid]");
      await noticeAfter(
        () => page.getByRole("button", { name: "Save URLs" }).click(),
        "Project updated successfully",
      );
      assertEquals((await project(c.projectCode)).singleLinkUrl, "https://survey.example.com/s/1?uid=[uid]");
      await page.getByLabel("Multi-link").click();
      await page.getByLabel("Upload survey links CSV").setInputFiles(
        csv("links.csv", [
          "https://s.example/a?uid=[uid]",
          "https://s.example/b?uid=[uid]",
          "https://s.example/c?uid=[uid]",
        ]),
      );
      await page.getByTestId("links-count").filter({ hasText: "3 links uploaded" }).waitFor();
      await noticeAfter(
        () => page.getByRole("button", { name: "Save URLs" }).click(),
        "Project updated successfully",
      );
      const links = await db.selectFrom("project_links").select("url").where("projectId", "=", childId)
        .execute();
      assertEquals(links.length, 3);

      // securities: Max IP count only with Unique IP, Speed time only with Speeder
      await page.getByRole("tab", { name: "Project Securities" }).click();
      assertEquals(await page.getByLabel("Max IP count").count(), 0);
      await page.getByLabel("Unique IP").click();
      await page.getByLabel("Max IP count").fill("2");
      assertEquals(await page.getByLabel("Speed time").count(), 0);
      await page.getByLabel("Speeder").click();
      await page.getByLabel("Speed time").fill("120");
      await noticeAfter(
        () => page.getByRole("button", { name: "Save securities" }).click(),
        "Project updated successfully",
      );
      const s = await project(c.projectCode);
      assertEquals([s.isUniqueIp, s.maxIPCount, s.isSpeeder, s.speedTime], [1, 2, 1, 120]);
    });

    await t.step("Edit Child Project: pre-screen questions, suppliers, exclusions, siblings", async () => {
      const c = await db.selectFrom("projects").selectAll().where("id", "=", childId)
        .executeTakeFirstOrThrow();
      // pre-screen: from the library; the badge counts
      await page.getByRole("tab", { name: /Pre Questionaire/ }).click();
      await page.getByRole("combobox", { name: "Library question" }).click();
      await page.getByRole("option", { name: "Do you own a car?" }).click();
      await page.getByRole("button", { name: "Add from library" }).click();
      await page.getByTestId("project-question").filter({ hasText: "Do you own a car?" }).waitFor();
      await page.getByTestId("questions-count").filter({ hasText: "1" }).waitFor();
      // a new question whose option has a quota that is not a number: the refused add says where
      await page.getByRole("button", { name: "New question" }).click();
      const qDialog = page.getByRole("dialog");
      await qDialog.getByRole("textbox", { name: "Question", exact: true }).fill("How old is your car?");
      await qDialog.getByRole("combobox", { name: "Type" }).click();
      await page.getByRole("option", { name: "Radio" }).click();
      await qDialog.getByLabel("Option 1", { exact: true }).fill("New");
      await qDialog.getByLabel("Option 2", { exact: true }).fill("Old");
      const quota1 = qDialog.getByLabel("Quota of option 1");
      await quota1.fill("ten");
      await qDialog.getByRole("button", { name: "Add question" }).click();
      await qDialog.getByText("quota must be a number of 0 or more").waitFor();
      assertEquals(await quota1.getAttribute("aria-invalid"), "true");
      await quota1.fill("10");
      await noticeAfter(
        () => qDialog.getByRole("button", { name: "Add question" }).click(),
        "Question added successfully",
      );
      await page.getByTestId("project-question").filter({ hasText: "How old is your car?" }).waitFor();
      await page.getByTestId("questions-count").filter({ hasText: "2" }).waitFor();

      // suppliers: the map form's rules and defaults, the grid's toggles, the questionnaire
      await page.getByRole("tab", { name: /Suppliers/ }).click();
      await page.getByText("No suppliers mapped yet").waitFor();
      await page.getByRole("button", { name: /Add\/Update Supplier/ }).click();
      assertEquals(await page.getByLabel("Supplier CPI").inputValue(), "0");
      assert(await page.getByRole("switch", { name: "Allow traffic" }).isChecked());
      assert(!(await page.getByRole("switch", { name: "Test link" }).isChecked()));
      await page.getByRole("button", { name: "Add supplier", exact: true }).click();
      await page.getByText(MSG.mapSupplierRequired).waitFor();
      await page.getByRole("combobox", { name: "Supplier", exact: true }).click();
      await page.getByRole("option", { name: "Panel Bees" }).click();
      // the supplier's own return links fill the new map's, to keep or change
      await page.waitForFunction(() =>
        (document.querySelector("input[name=redirectTerminate]") as HTMLInputElement | null)?.value ===
          "https://bees.example/t?sid=[sid]"
      );
      assertEquals(
        await page.getByLabel("Over Quota", { exact: true }).inputValue(),
        "https://bees.example/q?sid=[sid]",
      );
      assertEquals(await page.getByLabel("Survey Close", { exact: true }).inputValue(), "");
      await page.getByLabel("Supplier CPI").fill("1.25");
      await page.getByLabel("Supplier Quota").fill("50");
      await page.getByLabel("Complete", { exact: true }).fill("https://bees.example/done");
      await page.getByRole("button", { name: "Add supplier", exact: true }).click();
      await page.getByText(MSG.invalidUrl).waitFor();
      await page.getByLabel("Complete", { exact: true }).fill("https://bees.example/done?sid=[sid]");
      await noticeAfter(
        () => page.getByRole("button", { name: "Add supplier", exact: true }).click(),
        "Supplier mapped successfully",
      );
      const mapRow = page.getByTestId("supplier-maps").locator("tbody tr").filter({ hasText: "Panel Bees" });
      await mapRow.waitFor();
      // the whole form starts again, the supplier select included (it kept showing Panel Bees while
      // its value was empty, so a second Add said 'Supplier is required'), and the new row is shown
      const supplierSelect = page.getByRole("combobox", { name: "Supplier", exact: true });
      await supplierSelect.filter({ hasText: "Select a supplier" }).waitFor();
      assertEquals(await page.getByLabel("Supplier CPI").inputValue(), "0");
      assertEquals(await page.getByLabel("Complete", { exact: true }).inputValue(), "");
      await mapRow.and(page.locator("[data-highlight]")).waitFor();
      await page.waitForFunction(() => {
        const r = document.querySelector("[data-testid=supplier-maps] tr[data-highlight]")
          ?.getBoundingClientRect();
        return !!r && r.top >= 0 && r.bottom <= innerHeight;
      });
      await page.getByTestId("suppliers-count").filter({ hasText: "1" }).waitFor();
      const map = await db.selectFrom("supplier_maps").selectAll().where("projectId", "=", childId)
        .executeTakeFirstOrThrow();
      assertEquals([map.supplierId, map.supplierCPI, map.allowTraffic, map.isBoarded], [
        supplier._id,
        1.25,
        1,
        1,
      ]);
      assertEquals([map.redirectComplete, map.redirectTerminate, map.redirectSurveyClose], [
        "https://bees.example/done?sid=[sid]",
        "https://bees.example/t?sid=[sid]",
        "",
      ]);
      // neither the map nor Panel Bees has a Quality Term or Survey Close link: the row says so
      await mapRow.getByTestId("missing-returns").filter({
        hasText: "No return link: Quality Term, Survey Close",
      })
        .waitFor();
      assert(await mapRow.getByText(`/survey/start/${map.id}?sid=[sid]`).isVisible());
      await noticeAfter(
        () => mapRow.getByRole("switch", { name: "Test link of Panel Bees" }).click(),
        "Supplier map updated successfully",
      );
      assertEquals(
        (await db.selectFrom("supplier_maps").select("isTestLink").where("id", "=", map.id)
          .executeTakeFirstOrThrow()).isTestLink,
        1,
      );
      await mapRow.getByText("Active", { exact: true }).first().waitFor();
      // 'Add Questionaire': the project's questionnaire
      const editor = page.getByRole("textbox", { name: `Questionnaire of ${c.projectCode}` });
      await editor.click();
      await page.keyboard.type("Screen for car owners only.");
      await noticeAfter(
        () => page.getByRole("button", { name: "Update", exact: true }).click(),
        "Project updated successfully",
      );
      assertMatch((await project(c.projectCode)).projectQuestionaire, /Screen for car owners only\./);

      // exclusions: 'Project is required', then the group project excluded, a flag toggled
      await page.getByRole("tab", { name: "Exclude/Include" }).click();
      await page.getByRole("button", { name: "Add", exact: true }).click();
      await page.getByText(MSG.projectRequired).waitFor();
      const parent = await db.selectFrom("projects").select(["projectCode"]).where("id", "=", parentId)
        .executeTakeFirstOrThrow();
      await page.getByRole("combobox", { name: "Project", exact: true }).click();
      await page.getByRole("option", { name: new RegExp(`^${parent.projectCode} - `) }).click();
      await noticeAfter(
        () => page.getByRole("button", { name: "Add", exact: true }).click(),
        "Exclusion added successfully",
      );
      await noticeAfter(
        () => page.getByRole("checkbox", { name: `Dropout of ${parent.projectCode}` }).click(),
        "Exclusion updated successfully",
      );
      const ex = await db.selectFrom("project_exclusions").selectAll().where("projectId", "=", childId)
        .executeTakeFirstOrThrow();
      assertEquals([ex.isExcluded, ex.complete, ex.dropout], [1, 1, 0]);

      // siblings: the header switches child projects and replaces the history entry
      const sibling = await createChildProject(
        { db, now: wallClock, actor: SYSTEM_ACTOR, userId: admin._id, role: "SUPERADMIN" },
        v.parse(ChildProject, {
          projectName: "Car owners GB",
          clientId: client._id,
          parentProjectId: parentId,
          countryId: "GB",
          averageLOI: 10,
          ir: 40,
          sampleSize: 50,
          respondentClickQuota: 200,
          cpi: 2,
          startDate: "2030-01-01",
          endDate: "2030-02-01",
        }),
      );
      await page.reload();
      await page.getByRole("combobox", { name: "Switch child project" }).click();
      await page.getByRole("option", { name: sibling.projectCode }).click();
      await page.waitForURL(`**/admin/project/child/${sibling._id}/edit?tab=exclude`);
      await page.getByText("Car owners GB").waitFor();
      await page.goBack();
      await page.waitForURL((u) => u.pathname === `/admin/project/${parentId}/childs`);

      // Project Information saves and returns to the child projects
      await page.goto(`/admin/project/child/${childId}/edit`);
      await page.getByLabel("Project name").fill("Car owners United States");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.waitForURL(`**/admin/project/${parentId}/childs`);
      assertEquals((await project(c.projectCode)).projectName, "Car owners United States");
    });

    await t.step("Clone: Clone Criteria needs country and language, then the new group opens", async () => {
      await page.goto("/admin/project");
      const row = grid.locator(`tr[data-row-id="${parentId}"]`);
      await row.getByRole("button", { name: "Row actions" }).click();
      await page.getByRole("menuitem", { name: "Clone" }).click();
      const dialog = page.getByRole("dialog", { name: "Clone Criteria" });
      await dialog.getByRole("combobox", { name: "Language" }).filter({ hasText: "English" }).waitFor();
      await dialog.getByRole("button", { name: "Clone" }).click();
      await dialog.getByText(MSG.cloneCountryRequired).waitFor();
      await dialog.getByRole("combobox", { name: "Country" }).click();
      await page.getByRole("option", { name: "Canada", exact: true }).click();
      await noticeAfter(
        () => dialog.getByRole("button", { name: "Clone" }).click(),
        "Project cloned successfully",
      );
      await page.waitForURL((u) => /^\/admin\/project\/[0-9a-f]{24}\/childs$/.test(u.pathname));
      const newId = pathOf(page).split("/")[3];
      assert(newId !== parentId);
      const kids = await db.selectFrom("projects").select(["countryId", "complete"]).where(
        "parentProjectId",
        "=",
        newId,
      )
        .execute();
      assertEquals(kids.map((k) => k.countryId), ["CA", "CA"]);
      await grid.locator("tbody tr[data-row-id]").nth(1).waitFor();
    });

    await t.step(
      "Pausing a Live group asks first; Live again brings back the children it paused",
      async () => {
        await page.goto("/admin/project");
        const row = grid.locator(`tr[data-row-id="${parentId}"]`);
        const [own, other] = await db.selectFrom("projects").select(["id", "projectCode"])
          .where("parentProjectId", "=", parentId).orderBy("projectCode").execute();
        // the first child was paused on its own (above); the second one is Live
        await db.updateTable("projects").set({ projectStatus: 1 }).where("id", "=", other.id).execute();
        const pause = async () => {
          await row.getByRole("button", { name: /Live\. Change status/ }).click();
          await page.getByRole("menuitem", { name: "Paused" }).click();
          const ask = page.getByRole("alertdialog");
          await ask.getByRole("heading", { name: /^Stop live traffic to P\d+\?$/ }).waitFor();
          return ask;
        };
        // one click no longer pauses: the question comes first, and No leaves it Live
        const ask = await pause();
        assertMatch(await ask.innerText(), /Its live child projects pause with it/);
        await ask.getByRole("button", { name: "No, keep it Live" }).click();
        await ask.waitFor({ state: "detached" });
        assertEquals(
          (await db.selectFrom("projects").select("projectStatus").where("id", "=", parentId)
            .executeTakeFirstOrThrow()).projectStatus,
          1,
        );
        await noticeAfter(
          async () => (await pause()).getByRole("button", { name: "Yes, set Paused" }).click(),
          "Project updated successfully: 1 child project Paused with it",
        );
        assertEquals((await project(other.projectCode)).projectStatus, 3);
        // back to Live (nothing stops: no question); the toast says which child came back and which did not
        await row.getByRole("button", { name: /Paused\. Change status/ }).click();
        await noticeAfter(
          () => page.getByRole("menuitem", { name: "Live" }).click(),
          `1 child project live again; ${own.projectCode} stays Paused`,
        );
        assertEquals((await project(other.projectCode)).projectStatus, 1);
        assertEquals((await project(own.projectCode)).projectStatus, 3);
        await row.getByRole("button", { name: /Live\. Change status/ }).waitFor();
      },
    );

    await t.step("Close asks a PO number; the Logs timeline shows who did what and when", async () => {
      await page.goto("/admin/project");
      const row = grid.locator(`tr[data-row-id="${parentId}"]`);
      await row.getByRole("button", { name: /Change status/ }).click();
      const menu = await page.getByRole("menuitem").allTextContents();
      assertEquals(menu, ["Testing", "Paused", "Waiting", "Closed…"]);
      await page.getByRole("menuitem", { name: "Closed…" }).click();
      const dialog = page.getByRole("dialog");
      const close = dialog.getByRole("button", { name: "Close project" });
      assert(await close.isDisabled());
      await dialog.getByLabel("PO Number").fill("x");
      await dialog.getByLabel("PO Number").fill("");
      await dialog.getByText(MSG.poNumberRequired).waitFor();
      assert(await close.isDisabled());
      await dialog.getByLabel("PO Number").fill("PO-7781");
      await noticeAfter(() => close.click(), "Project closed successfully");
      await row.getByText("Closed").waitFor();
      const p = await db.selectFrom("projects").selectAll().where("id", "=", parentId)
        .executeTakeFirstOrThrow();
      assertEquals([p.projectStatus, p.poNumber], [6, "PO-7781"]);
      // its children closed with it; Closed stays on offer, to correct the PO number
      assertEquals((await project(`${p.projectCode}-01`)).projectStatus, 6);
      await row.getByRole("button", { name: /Closed\. Change status/ }).click();
      assertEquals(await page.getByRole("menuitem").allTextContents(), [
        "Testing",
        "Live",
        "Paused",
        "Waiting",
        "Closed…",
      ]);
      await page.keyboard.press("Escape");

      await row.getByRole("button", { name: "Row actions" }).click();
      await page.getByRole("menuitem", { name: "Logs" }).click();
      const timeline = page.getByTestId("log-timeline");
      const first = timeline.locator("li").first();
      await first.getByText(`Status of ${p.projectCode} changed from Live to Closed`).waitFor();
      assertMatch(await first.innerText(), /\d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2} · by E2eSuperadmin Tester/);
      await page.keyboard.press("Escape");
      await timeline.waitFor({ state: "detached" });

      // Proceed to Invoice: 'Are you sure?', then whether to e-mail the suppliers (sendEmail)
      await row.getByRole("button", { name: "Row actions" }).click();
      await page.getByRole("menuitem", { name: "Proceed to Invoice" }).click();
      await page.getByRole("alertdialog").getByRole("heading", { name: MSG.areYouSure }).waitFor();
      await page.getByRole("alertdialog").getByRole("button", { name: "Yes" }).click();
      const ask = page.getByRole("dialog", { name: "E-mail the suppliers?" });
      await noticeAfter(
        () => ask.getByRole("button", { name: "Proceed to Invoice and e-mail" }).click(),
        "Project updated successfully",
      );
      await row.getByText("Ready To Invoice").waitFor();
      await eventually(async () => {
        const mails = await db.selectFrom("email_outbox").select("subject")
          .where("toAddress", "=", "ops@bees.example").execute();
        assert(mails.some((m) => m.subject.includes("ready to invoice")));
      });
    });

    await t.step("the dashboard's search text filters the list", async () => {
      await page.goto(`/admin/project?search=${encodeURIComponent("Car owners")}`);
      await page.waitForURL((u) => u.searchParams.get("q") === "Car owners" && !u.searchParams.has("search"));
      await page.waitForFunction(() =>
        (document.querySelector("[role=searchbox]") as HTMLInputElement | null)?.value === "Car owners"
      );
      await page.getByTestId("grid-range").filter({ hasText: "1–2 of 2" }).waitFor();
      await page.goto("/admin/project/fetch");
      await page.getByText("No provider configured").waitFor();
    });

    assertEquals(errors, []);
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}));
