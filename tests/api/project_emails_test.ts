import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectCallGuarded, testApp } from "../helpers/app.ts";
import { makeChild, makeParent, makeSupplier } from "../helpers/fixtures.ts";
import * as PRep from "../../shared/api/project-reports.ts";
import * as SMap from "../../shared/api/supplier-maps.ts";

async function setup() {
  const t = await testApp({ PUBLIC_URL: "https://go.samplex.test" });
  const token = await t.tokenFor("ADMIN");
  const parent = await makeParent(t, { clientEmail: "pm@buyer.example" });
  const child = await makeChild(t, parent);
  const s1 = await makeSupplier(t, { isEmailNotification: true });
  const s2 = await makeSupplier(t, { isEmailNotification: false });
  for (const s of [s1, s2]) {
    await t.api(SMap.saveSupplierMapCall, {
      token,
      body: { projectId: child._id, supplierId: s._id, supplierCPI: 1.25 },
    });
  }
  const outbox = () => t.deps.db.selectFrom("email_outbox").selectAll().orderBy("createdAt").execute();
  return { t, token, parent, child, s1, s2, outbox };
}

Deno.test("project e-mail: goes to every mapped supplier; 'Body is required' when blank", async () => {
  const { t, token, parent, s1, s2, outbox } = await setup();
  try {
    const blank = await t.api(PRep.sendProjectEmailCall, {
      token,
      bad: { type: "project", projectId: parent._id, emailBody: "<p><br></p>" },
    });
    assertEquals(blank.status, 400);
    assertEquals(blank.json.message, "Body is required");
    const r = await t.api(PRep.sendProjectEmailCall, {
      token,
      body: { type: "project", projectId: parent._id, emailBody: "<p>Field starts Monday</p>" },
    });
    assertEquals(r.status, 200);
    assertMatch(
      r.json.message,
      /^2 e-mails queued: no mail server is configured, so they wait in the outbox/,
    );
    const mails = await outbox();
    assertEquals(mails.map((m) => m.toAddress).sort(), [s1.supplierEmail, s2.supplierEmail].sort());
    assertMatch(mails[0].bodyHtml, /Field starts Monday/);
  } finally {
    await t.close();
  }
});

Deno.test("supplier links e-mail carries each supplier's own entry link; client report goes to the client", async () => {
  const { t, token, parent, outbox } = await setup();
  try {
    assertEquals(
      (await t.api(PRep.sendSupplierLinksCall, { token, body: { projectId: parent._id } })).status,
      200,
    );
    const links = await outbox();
    assertEquals(links.length, 2);
    assert(
      links.every((m) =>
        /https:\/\/go\.samplex\.test\/survey\/start\/[0-9a-f]{24}\?sid=\[sid\]/.test(m.bodyHtml)
      ),
    );
    assertEquals(
      (await t.api(PRep.sendClientReportCall, { token, body: { projectId: parent._id } })).status,
      200,
    );
    const report = (await outbox()).find((m) => m.toAddress === "pm@buyer.example");
    assert(report);
    assertMatch(report.subject, /Progress report/);
    const rfq = await t.api(PRep.sendRfqCall, { token, body: { projectId: parent._id } });
    assertEquals(rfq.status, 200);
    assertEquals(rfq.json.result.queued, 1);
    assertEquals((await t.api(PRep.sendSupplierLinksCall, { token, bad: {} })).status, 400);
    await expectCallGuarded(t, PRep.sendClientReportCall, "SUBSCRIBER");
  } finally {
    await t.close();
  }
});

Deno.test("group and supplier-map reports stream CSV with the project's rows", async () => {
  const { t, token, parent, child } = await setup();
  try {
    await t.deps.db.updateTable("projects").set({ complete: 4, terminate: 6 }).where("id", "=", child._id)
      .execute();
    const g = await t.api(PRep.groupReportCall, { token, body: { projectId: parent._id } });
    assertEquals(g.status, 200);
    assertMatch(g.headers.get("content-type") ?? "", /text\/csv/);
    const lines = g.text.trim().split("\r\n");
    assertEquals(lines.length, 2);
    assertMatch(lines[1], new RegExp(`^${child.projectCode},`));
    assertMatch(lines[1], /40%$/);
    const m = await t.api(PRep.supplierMapReportCall, {
      token,
      body: { projectId: parent._id },
    });
    assertEquals(m.text.trim().split("\r\n").length, 3);
    assertMatch(m.text, /https:\/\/go\.samplex\.test\/survey\/start\//);
  } finally {
    await t.close();
  }
});
