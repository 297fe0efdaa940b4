/**
 * The supplier portal in the built SPA, at 1440 px and at 375 px: a supplier user signs in, starts
 * an inventory project with its redirect links (the staff's 'Invalid Url' rule first), copies the
 * project's entry link, sends a respondent through it (the real router, over HTTP), sees the counts
 * move, downloads the report and finds that respondent in it.
 */
import * as v from "valibot";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { parseCsv } from "../helpers/master.ts";
import { ClientForm } from "../../shared/schemas/client.ts";
import { SupplierForm } from "../../shared/schemas/supplier.ts";
import { ChildProject, GroupProject, ProjectPatch } from "../../shared/schemas/project.ts";
import { SYSTEM_ACTOR } from "../../server/domain/audit/log.ts";
import { createClient } from "../../server/domain/clients/clients.ts";
import { createSupplier } from "../../server/domain/suppliers/suppliers.ts";
import type { Caller } from "../../server/domain/projects/projects.ts";
import { createChildProject, createGroupProject } from "../../server/domain/projects/create.ts";
import { updateProject } from "../../server/domain/projects/update.ts";
import type { Page } from "playwright-core";
import {
  e2e,
  type E2eServer,
  launchBrowser,
  newPage,
  pathOf,
  readClipboard,
  signIn,
  startServer,
} from "./helpers.ts";
import { wallClock } from "../../server/domain/common/clock.ts";

const CLIENT_URL = "https://survey.client.example/s?rid=[uid]";

async function liveChild(server: E2eServer, caller: Caller, clientId: string, name: string) {
  const { db } = server.deps;
  const parent = await createGroupProject(
    { db, now: wallClock, ...caller },
    v.parse(GroupProject, { projectName: name, clientId, userId: caller.userId, averageLOI: 10, ir: 50 }),
  );
  const child = await createChildProject(
    { db, now: wallClock, ...caller },
    v.parse(ChildProject, {
      projectName: `${name} US`,
      parentProjectId: parent._id,
      clientId,
      countryId: "US",
      averageLOI: 10,
      ir: 50,
      sampleSize: 50,
      respondentClickQuota: 0,
      cpi: 4,
      startDate: "2026-11-01",
      endDate: "2026-12-01",
    }),
  );
  await updateProject({ ...server.deps, now: wallClock, ...caller }, {
    ...v.parse(ProjectPatch, { projectStatus: 1, singleLinkUrl: CLIENT_URL, isDynamicThanksUrl: false }),
    id: child._id,
  });
  return child;
}

/** A respondent through the entry link and back as a complete, over HTTP like any browser. */
async function sendRespondent(server: E2eServer, entryLink: string, sid: string) {
  const enter = await fetch(entryLink.replace("[sid]", sid), { redirect: "manual" });
  await enter.body?.cancel();
  assertEquals(enter.status, 302, `entry of ${sid}`);
  const uid = new URL(enter.headers.get("location")!).searchParams.get("rid");
  assert(uid, "the client link carries the respondent's uid");
  const end = await fetch(`${server.url}/survey/end?status=c&uid=${uid}`, { redirect: "manual" });
  await end.body?.cancel();
  assertEquals(end.status, 302);
  assertMatch(end.headers.get("location") ?? "", new RegExp(`^https://panel\\.e2e/complete\\?sid=${sid}`));
}

async function run(page: Page, server: E2eServer, code: string, sid: string, phone: boolean) {
  // inventory: start the project; the links follow the staff's supplier map rules
  await page.getByRole("link", { name: "Inventory" }).click();
  await page.waitForURL((u) => u.pathname === "/supplier/inventory");
  await page.getByRole("button", { name: `Start ${code}` }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Complete").fill("https://panel.e2e/complete");
  await dialog.getByRole("button", { name: "Start project" }).click();
  await dialog.getByText("Invalid Url").waitFor();
  await dialog.getByLabel("Complete").fill("https://panel.e2e/complete?sid=[sid]");
  await dialog.getByRole("button", { name: "Start project" }).click();
  await dialog.getByTestId("started").waitFor();
  await dialog.getByRole("link", { name: "Go to Projects" }).click();
  await page.waitForURL((u) => u.pathname === "/supplier/project");

  // the project is among the mapped ones: copy its entry link with one tap
  const where = page.getByTestId(phone ? "portal-cards" : "portal-grid");
  const row = phone
    ? where.getByTestId("portal-card").filter({ hasText: code })
    : where.locator("tr", { hasText: code });
  await row.waitFor();
  await row.getByRole("button", { name: `Copy entry link of ${code}` }).click();
  const link = await readClipboard(page);
  assertMatch(link, new RegExp(`^${server.url}/survey/start/[0-9a-f]{24}\\?sid=\\[sid\\]$`));

  // a respondent through it, then the counts move
  await sendRespondent(server, link, sid);
  await page.reload();
  await row.waitFor();
  await row.getByText("100%").waitFor();
  assertEquals(await page.getByTestId("tile-completes-value").innerText(), phone ? "2" : "1");

  // the report holds the respondent
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("button", { name: `Download the report of ${code}` }).click(),
  ]);
  const rows = parseCsv(await Deno.readTextFile((await download.path())!)).filter((r) => r.length > 1);
  const sidAt = rows[0].indexOf("Supplier identifier");
  assertEquals(rows.slice(1).map((r) => [r[sidAt], r[rows[0].indexOf("Status")]]), [[sid, "Complete"]]);
}

Deno.test(
  e2e("supplier portal at 1440 px and 375 px: start, copy the entry link, traffic, report", async (t) => {
    const server = await startServer();
    const browser = await launchBrowser();
    const { db } = server.deps;
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
          supplierRuleCPI: "1.5|2",
        }),
      );
      const user = await server.user("SUPPLIER", { email: "otters@e2e.test", supplierId: supplier._id });
      const wide = await liveChild(server, caller, client._id, "Coffee habits");
      const narrow = await liveChild(server, caller, client._id, "Tea habits");

      for (
        const [label, viewport, project, sid] of [
          ["1440 px", { width: 1440, height: 900 }, wide, "otter-wide-1"],
          ["375 px", { width: 375, height: 812 }, narrow, "otter-phone-1"],
        ] as const
      ) {
        await t.step(label, async () => {
          const { context, page, errors } = await newPage(browser, server.url);
          try {
            await context.grantPermissions(["clipboard-read", "clipboard-write"]);
            await page.setViewportSize(viewport);
            await signIn(page, user.email);
            assertEquals(pathOf(page), "/supplier/project");
            await page.getByTestId("supplier-dashboard").waitFor();
            await run(page, server, project.projectCode, sid, viewport.width < 768);
            if (viewport.width < 768) {
              const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
              assert(overflow <= 0, `the page does not scroll sideways on a phone (${overflow} px)`);
            }
            assertEquals(errors, []);
          } finally {
            await context.close();
          }
        });
      }
    } finally {
      await browser.close();
      await server.close();
    }
  }),
);
