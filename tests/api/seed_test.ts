import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { DEMO_PASSWORD, seedDemo, seedIfEmpty } from "../../server/seed/seed.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import * as Acc from "../../shared/api/accounts.ts";
import * as C from "../../shared/api/clients.ts";
import * as Em from "../../shared/api/email.ts";
import * as Lib from "../../shared/api/library.ts";
import * as Parts from "../../shared/api/project-parts.ts";
import * as Proj from "../../shared/api/projects.ts";
import * as Sess from "../../shared/api/session.ts";
import * as Sup from "../../shared/api/suppliers.ts";

Deno.test("demo data: master data through the domain, and a supplier login tied to a panel", async () => {
  const t = await testApp();
  try {
    const counts = await seedDemo(t.deps);
    assertEquals(counts, {
      users: 8,
      clients: 9,
      suppliers: 9,
      categories: 7,
      questions: 7,
      qualifications: 6,
      supplierRules: 4,
      projects: 8,
      childProjects: 10,
      supplierMaps: 17,
      sessions: counts.sessions,
    });
    assert(
      counts.sessions > 2_000 && counts.sessions < 6_000,
      `a few thousand sessions (${counts.sessions})`,
    );
    assertEquals(
      await seedIfEmpty({ ...t.deps, env: { ...t.deps.env, SEED: "demo" } }),
      null,
      "seeds only once",
    );

    const login = await t.api(Sess.loginCall, {
      body: { email: "supplier@samplex.demo", password: DEMO_PASSWORD },
    });
    assertEquals(login.status, 200);
    assertEquals(login.json.result.admin.role, "SUPPLIER");
    const admin = (await t.api(Sess.loginCall, {
      body: { email: "admin@samplex.demo", password: DEMO_PASSWORD },
    })).json.result.accessToken;
    const panel = await t.api(Sup.getSupplierCall, {
      params: { id: login.json.result.admin.supplierId },
      token: admin,
    });
    assertEquals(panel.json.result.supplierName, "Opinion Harbor");

    const clients = (await t.api(C.listClients, { token: admin, body: { limit: 20 } })).json.result.data;
    assertEquals(clients.length, 9);
    assert(clients.every((c: { assignedToName: string }) => c.assignedToName === "Bruno Costa"));
    assert(
      new Set(clients.map((c: { countryId: string }) => c.countryId)).size >= 8,
      "clients across countries",
    );
    const apiClients = await t.api(C.filterClients, {
      token: admin,
      body: { isApiIntegration: true },
    });
    assertEquals(apiClients.json.result.length, 3);

    const suppliers =
      (await t.api(Sup.listSuppliers, { token: admin, body: { limit: 20 } })).json.result.data;
    assertEquals(new Set(suppliers.map((s: { supplierType: number }) => s.supplierType)), new Set([1, 2]));
    const one =
      (await t.api(Sup.getSupplierCall, { params: { id: suppliers[0]._id }, token: admin })).json.result;
    assertMatch(one.redirectComplete, /^https:\/\/.+\/complete\?sid=\[sid\]$/);

    const questions = (await t.api(Lib.listTempQuestions, { token: admin })).json.result;
    assertEquals(questions[0].title, "What is your age?");
    assertEquals(
      questions.find((q: { questionType: string }) => q.questionType === "MAP").questionOption.length,
      4,
    );
    const quals = (await t.api(Lib.listQualificationsCall, { token: admin })).json.result;
    assert(quals.every((q: { qualificationOptions: unknown[] }) => q.qualificationOptions.length >= 2));
    assertEquals(
      (await t.api(Lib.listSupplierRules, { token: admin, body: {} })).json.result.metadata
        .total,
      4,
    );
    assertEquals(
      (await t.api(Lib.listCategories, { token: admin, body: {} })).json.result.metadata.total,
      7,
    );
    const mail = await t.api(Em.sendBulkSupplierEmail, {
      token: admin,
      body: { emailBody: "Hi" },
    });
    assertEquals(mail.json.result.queued, 7, "active suppliers with notifications on");
  } finally {
    await t.close();
  }
});

Deno.test("demo data: projects across statuses with 90 days of traffic sent through the router; counts agree", async () => {
  const t = await testApp();
  try {
    const now = Date.parse("2026-11-20T12:00:00Z");
    await seedDemo(t.deps, { now });
    assertEquals(await counterMismatches(t.deps.db), [], "counters, rollups and sessions agree");
    const children = await t.deps.db.selectFrom("projects").select([
      "projectStatus",
      "clicked",
      "complete",
      "sampleSize",
    ])
      .where("projectType", "=", 2).execute();
    assertEquals(new Set(children.map((c) => c.projectStatus)), new Set([1, 3, 4, 5, 6, 7, 9]));
    assert(children.every((c) => c.complete <= c.sampleSize), "completes never pass the sample size");
    assert(children.filter((c) => c.clicked > 0).length >= 6);
    // a group project with a live child reads Live in the projects list, not Awarded
    const liveParents = await t.deps.db.selectFrom("projects as p").select("p.projectStatus")
      .where("p.projectType", "=", 1)
      .where((eb) =>
        eb.exists(
          eb.selectFrom("projects as c").select("c.id").whereRef("c.parentProjectId", "=", "p.id").where(
            "c.projectStatus",
            "=",
            1,
          ),
        )
      )
      .execute();
    assert(
      liveParents.length > 0 && liveParents.every((p) => p.projectStatus === 1),
      "parents of live children are Live",
    );
    const statuses = new Set(
      (await t.deps.db.selectFrom("sessions").select("status").distinct().execute()).map((r) => r.status),
    );
    for (
      const s of [
        "complete",
        "terminate",
        "overQuota",
        "qualityTerm",
        "drop",
        "security",
        "duplicate",
        "preScreenTerminate",
        "preScreenDrop",
      ]
    ) {
      assert(statuses.has(s as never), `some sessions end as ${s}`);
    }
    const span = await t.deps.db.selectFrom("router_daily").select((eb) => [
      eb.fn.min("date").as("first"),
      eb.fn.max("date").as("last"),
      eb.fn.sum<number>("revenue").as("revenue"),
    ]).executeTakeFirstOrThrow();
    assert(
      span.first! >= "2026-08-22" && span.first! <= "2026-08-30",
      `traffic starts about 90 days back (${span.first})`,
    );
    assertEquals(span.last, "2026-11-20");
    assert(Number(span.revenue) > 0);
    // the admin lists read the router's counters
    const admin = (await t.api(Sess.loginCall, {
      body: { email: "admin@samplex.demo", password: DEMO_PASSWORD },
    })).json.result.accessToken;
    const list = await t.api(Proj.listProjects, { token: admin, body: { limit: 20 } });
    assertEquals(list.json.result.metadata.total, 8);
    const byName = async (name: string) =>
      await t.deps.db.selectFrom("projects").selectAll().where("projectName", "=", name)
        .executeTakeFirstOrThrow();

    // the Accounts tabs Ready To Invoice and Archieved have a project each, reconciled first (its
    // approved and rejected add up to its completes), then sent on by the status actions
    const accountant = await t.tokenFor("ACCOUNTANT");
    for (
      const [call, name, status] of [
        [Acc.listReadyToInvoice, "Grocery Delivery Habits", 4],
        [Acc.listArchieved, "Summer Beverage Tracker", 7],
      ] as const
    ) {
      const tab = await t.api(call, { token: accountant, body: { limit: 20 } });
      assertEquals(tab.status, 200, tab.text);
      assertEquals(
        tab.json.result.data.map((r: { projectName: string }) => r.projectName),
        [name],
        `${call.key} lists the demo's ${name}`,
      );
      const group = await byName(name);
      const child = await t.deps.db.selectFrom("projects").selectAll().where("parentProjectId", "=", group.id)
        .executeTakeFirstOrThrow();
      assertEquals(
        [group.projectStatus, child.projectStatus],
        [status, status],
        "the child went with its group",
      );
      assert(child.complete > 0 && child.approved > 0, `${name} has reconciled completes`);
      assertEquals(child.approved + child.rejected, child.complete, `${name} is fully reconciled`);
      // the demo reconciles on the group project, as staff do from the Reconcile list
      const ups = await t.deps.db.selectFrom("reconciles").select("status").where("projectId", "=", group.id)
        .execute();
      assert(ups.length >= 1 && ups.every((u) => u.status === "applied"), `${name} went through reconcile`);
    }

    // the demo's invoices bill what the clients approved: each line the accepted count of its
    // project (summed over the children, the admin-approved count where set), at the project's CPI
    const lines = await t.deps.db.selectFrom("invoice_lines as l").innerJoin(
      "invoices as i",
      "i.id",
      "l.invoiceId",
    )
      .select(["i.invoiceCode", "i.total as invoiceTotal", "l.projectId", "l.complete", "l.cpi", "l.total"])
      .execute();
    assert(lines.length >= 1, "the demo has an invoice");
    for (const l of lines) {
      const kids = await t.deps.db.selectFrom("projects").select(["id", "complete", "approved", "cpi"])
        .where("parentProjectId", "=", l.projectId).where("isDeleted", "=", 0).execute();
      const maps = await t.deps.db.selectFrom("supplier_maps").select(["approved", "adminApproved"])
        .where("projectId", "in", kids.map((k) => k.id)).where("isDeleted", "=", 0).execute();
      const accepted = kids.reduce((n, k) => n + k.approved, 0) +
        maps.reduce((n, m) => n + (m.adminApproved === null ? 0 : m.adminApproved - m.approved), 0);
      const complete = kids.reduce((n, k) => n + k.complete, 0);
      assert(complete > accepted, `${l.invoiceCode}'s project had completes its client rejected`);
      assertEquals(l.complete, accepted, `${l.invoiceCode} bills the ${accepted} approved, not ${complete}`);
      assertEquals(l.cpi, kids[0].cpi);
      assertEquals(l.total, Math.round(accepted * l.cpi * 100) / 100);
    }
    for (const code of new Set(lines.map((l) => l.invoiceCode))) {
      const of = lines.filter((l) => l.invoiceCode === code);
      const sum = Math.round(of.reduce((n, l) => n + l.total, 0) * 100) / 100;
      assertEquals(of[0].invoiceTotal, sum, `${code}'s total is its lines'`);
    }

    // the child tabs have something to show: quotas on demo qualifications filled by the pre-screen
    // answers, pre-screen questions, security settings and a multi-link project
    const us = await byName("Brand Health US");
    const quotas =
      (await t.api(Parts.listQuotasCall, { params: { projectId: us.id }, token: admin })).json.result;
    assertEquals(quotas.map((q: { quotaId: { qualificationName: string } }) => q.quotaId.qualificationName), [
      "Gender",
      "Age",
    ]);
    assert(quotas.every((q: { totalMatchesSampleSize: boolean }) => q.totalMatchesSampleSize));
    const gender = quotas[0].options.filter((o: { selected: boolean }) => o.selected);
    assertEquals(gender.map((o: { text: string; quotaSize: number }) => [o.text, o.quotaSize]), [
      ["Male", 240],
      ["Female", 240],
      ["Non-binary", 20],
    ]);
    assertEquals(
      gender.reduce((n: number, o: { completes: number }) => n + o.completes, 0),
      us.complete,
      "every complete falls in one gender cell",
    );
    assert(gender[2].completes <= 20, "a full cell takes no more completes");
    const quotaFull = await t.deps.db.selectFrom("sessions").select("id").where("projectId", "=", us.id)
      .where("reason", "=", "quota-option-full").limit(1).executeTakeFirst();
    assert(quotaFull, "some respondents met a full quota cell");
    const prescreened = await t.deps.db.selectFrom("projects").select("projectName").where(
      "isPreScreen",
      "=",
      1,
    )
      .orderBy("projectName").execute();
    assertEquals(prescreened.map((p) => p.projectName), ["Brand Health US", "EV Intent Germany"]);
    assertEquals(
      (await t.api(Proj.getProjectCall, { params: { id: us.id }, token: admin })).json.result.questionCount,
      2,
    );
    assert(us.isUniqueIp && us.isSpeeder && us.maxIPCount === 2);
    const sg = await byName("Mobile Banking Singapore");
    assertEquals(sg.isMultiLinkUrl, 1);
    const links = await t.deps.db.selectFrom("project_links").select(["url", "usedBy"]).where(
      "projectId",
      "=",
      sg.id,
    )
      .execute();
    assertEquals(links.length, 150);
    const used = links.filter((l) => l.usedBy);
    assert(used.length > 20 && used.length <= sg.clicked, `links handed out once each (${used.length})`);
    const sessions = await t.deps.db.selectFrom("sessions").select(["id", "clientUrl"]).where(
      "projectId",
      "=",
      sg.id,
    )
      .where("clientUrl", "!=", "").execute();
    assertEquals(
      new Set(sessions.map((s) => s.clientUrl.split("?")[0])).size,
      sessions.length,
      "no two respondents got the same link",
    );
  } finally {
    await t.close();
  }
});
