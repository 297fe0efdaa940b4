/**
 * Reconcile in chromium against the real app: a Closed project with completes, reconciled from an
 * uploaded file on its reconcile page (the browser reads and checks the file first); the summary
 * shows with the identifiers it did not match (listed, and downloaded as CSV), the project's
 * Approved count moves on the page and in the projects list, and Undo Reconcile ('Do you sure?')
 * takes it back.
 */
import { Buffer } from "node:buffer";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { back, enter, liveProject, uidOf } from "../helpers/router.ts";
import { listProjects, updateProjectCall } from "../../shared/api/projects.ts";
import { apiOf, e2e, launchBrowser, newPage, pathOf, signIn, startServer } from "./helpers.ts";

Deno.test(
  e2e(
    "reconcile: a project reconciled from an uploaded file; its Approved count moves; undo takes it back",
    async () => {
      const server = await startServer();
      const browser = await launchBrowser();
      try {
        const admin = await server.user("ACCOUNTANT");
        const t = apiOf(server);
        const s = await liveProject(t);
        const uids: string[] = [];
        for (let i = 0; i < 4; i++) {
          const r = await enter(t, s.mapId, `e2e${i}`);
          const uid = uidOf(r.location);
          await back(t, uid, "c");
          uids.push(uid);
        }
        await server.deps.services.router.idle();
        for (const id of [s.child._id, s.parent._id]) {
          const r = await t.api(updateProjectCall, {
            params: { id },
            as: "SUPERADMIN",
            body: { projectStatus: 6, poNumber: "PO-E2E" },
          });
          assertEquals(r.status, 200, r.text);
        }

        const { page, errors } = await newPage(browser, server.url);
        await signIn(page, admin.email);
        await page.goto("/admin/reconcile");
        // the list opens on Closed projects
        await page.waitForURL((u) => u.searchParams.get("projectStatus") === "6");
        await page.getByRole("link", { name: s.parent.projectCode }).click();
        await page.waitForURL(`**/admin/reconcile/${s.parent._id}/edit`);
        await page.getByTestId("figure-Approved").filter({ hasText: "0" }).waitFor();

        await page.getByRole("combobox", { name: "Type" }).click();
        await page.getByRole("option", { name: "Approved", exact: true }).click();
        await page.getByLabel("Identifier file (CSV, one identifier a line)").setInputFiles({
          name: "approved.csv",
          mimeType: "text/csv",
          buffer: Buffer.from(
            `UID\n${uids[0]}\nnobody-1\n\n"${uids[1]}"\n${uids[2]}\n${uids[0]}\nnobody-2\n`,
          ),
        });
        await page.getByTestId("reconcile-preview").filter({ hasText: "5 identifiers read, 1 duplicate" })
          .waitFor();
        await page.getByRole("button", { name: "Upload" }).click();
        await page.getByTestId("figure-Approved").filter({ hasText: "3" }).waitFor();
        const summary = await page.getByTestId("reconcile-summary").first().textContent();
        assertMatch(summary ?? "", /Matched \(approved\): 3/);
        // what it did not match: listed, and every one as a CSV download
        const unknown = page.getByRole("list", { name: "Unknown identifiers" });
        assertEquals(await unknown.getByRole("listitem").allTextContents(), ["nobody-1", "nobody-2"]);
        const download = page.waitForEvent("download");
        await page.getByTestId("reconcile-unknown").last().getByRole("button", {
          name: "Download unknown identifiers",
        }).click();
        const file = await download;
        assertEquals(file.suggestedFilename(), `${s.parent.projectCode}-unknown-identifiers.csv`);
        const text = await Deno.readTextFile(await file.path());
        assertEquals(text, "\uFEFFIdentifier\r\nnobody-1\r\nnobody-2\r\n");

        // the projects list shows it too
        const list = await t.api(listProjects, { as: "SUPERADMIN", body: { search: s.parent.projectCode } });
        assertEquals(list.json.result.data[0].approved, 3);

        // Undo Reconcile asks the spec's question
        await page.getByRole("button", { name: "Undo Reconcile" }).click();
        await page.getByRole("alertdialog").getByText("Do you sure?").waitFor();
        await page.getByRole("button", { name: "Yes" }).click();
        await page.getByTestId("figure-Approved").filter({ hasText: /^0$/ }).waitFor();
        assertEquals(pathOf(page), `/admin/reconcile/${s.parent._id}/edit`);
        assertEquals(errors, []);
      } finally {
        await browser.close();
        await server.close();
      }
    },
  ),
);
