/**
 * Support > E-mail (issue 25, item 1): the outbox people can read. Every mail with its state
 * (queued, sending, sent, retrying with its next attempt, failed with the server's answer,
 * cancelled), its message, resend and cancel; who may; what the answers and the log say when mail is
 * only queued; the text part keeps the links' addresses.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectGuarded, type TestApp, testApp } from "../helpers/app.ts";
import { makeChild, makeParent, makeSupplier } from "../helpers/fixtures.ts";
import { decodeQp, startSmtp } from "../helpers/smtp.ts";
import { GIVE_UP_AFTER_MS, PERMANENT } from "../../server/domain/email/deliver.ts";
import { htmlToText } from "../../shared/html.ts";

const HOUR = 3_600_000;
const ID = (n: number) => `65a000000000000000000${String(n).padStart(3, "0")}`;

/** One mail of every state, queued an hour apart (newest last). */
async function seed(t: TestApp) {
  const now = t.deps.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const mail = (n: number, status: string, extra: Record<string, unknown> = {}) => ({
    id: ID(n),
    toAddress: `m${n}@panel.example`,
    subject: `Mail ${n}`,
    bodyHtml: `<p>Mail ${n}</p>`,
    bodyText: `Mail ${n}`,
    status: status as "queued",
    attempts: 0,
    lastError: "",
    module: "E-mail",
    recordId: null,
    createdAt: iso(now - (10 - n) * HOUR),
    updatedAt: iso(now - (10 - n) * HOUR),
    sentAt: null,
    attachments: "[]",
    ...extra,
  });
  await t.deps.db.insertInto("email_outbox").values([
    mail(1, "queued"),
    mail(2, "sending", { attempts: 1 }),
    mail(3, "sent", {
      attempts: 1,
      sentAt: iso(now - 7 * HOUR),
      attachments: JSON.stringify([{
        filename: "report.png",
        contentType: "image/png",
        content: "iVBORw0K",
      }]),
    }),
    // a temporary refusal: tried again a minute after its last attempt
    mail(4, "failed", { attempts: 3, lastError: "421 4.7.0 Try again later", updatedAt: iso(now - 30_000) }),
    // refused for good
    mail(5, "failed", { attempts: 1, lastError: `${PERMANENT}550 5.1.1 Mailbox unavailable` }),
    // given up: queued longer ago than the delivery keeps trying
    mail(6, "failed", {
      attempts: 9,
      lastError: "connect ECONNREFUSED",
      createdAt: iso(now - GIVE_UP_AFTER_MS - HOUR),
    }),
    mail(7, "cancelled"),
  ]).execute();
  return now;
}

const list = (t: TestApp, token: string, body: Record<string, unknown> = {}) =>
  t.call("POST", "/admin/email/outbox", { token, body: { limit: 50, ...body } });

Deno.test("outbox list: every mail with its state, attempts, the server's answer and a retrying mail's next attempt", async () => {
  const t = await testApp();
  try {
    const now = await seed(t);
    const token = await t.tokenFor("ACCOUNTANT");
    const r = await list(t, token);
    assertEquals(r.status, 200, r.text);
    assertEquals(r.json.result.metadata.total, 7);
    const rows = r.json.result.data as Record<string, unknown>[];
    // newest first
    assertEquals(rows.map((m) => [m.toAddress, m.state, m.attempts]), [
      ["m7@panel.example", "cancelled", 0],
      ["m5@panel.example", "failed", 1],
      ["m4@panel.example", "retrying", 3],
      ["m3@panel.example", "sent", 1],
      ["m2@panel.example", "sending", 1],
      ["m1@panel.example", "queued", 0],
      ["m6@panel.example", "failed", 9],
    ]);
    const byId = new Map(rows.map((m) => [m._id, m]));
    const retrying = byId.get(ID(4))!;
    assertEquals(retrying.lastError, "421 4.7.0 Try again later");
    // 3 attempts in one run: the next run is a minute after the last attempt
    assertEquals(retrying.nextAttemptAt, new Date(now - 30_000 + 60_000).toISOString());
    assertEquals(byId.get(ID(5))!.lastError, `${PERMANENT}550 5.1.1 Mailbox unavailable`);
    assertEquals(byId.get(ID(5))!.nextAttemptAt, null);
    assertEquals(byId.get(ID(3))!.subject, "Mail 3");
    assert(byId.get(ID(3))!.sentAt, "a sent mail says when");

    // filtered by state, searched, sorted, paged: the list kit's body
    const states = async (state: string[]) =>
      ((await list(t, token, { filter: { state } })).json.result.data as { _id: string }[]).map((m) => m._id);
    assertEquals(await states(["retrying"]), [ID(4)]);
    assertEquals(await states(["failed"]), [ID(5), ID(6)]);
    assertEquals(await states(["queued", "sending"]), [ID(2), ID(1)]);
    assertEquals(await states(["nonsense"]), rows.map((m) => m._id), "an unknown state narrows nothing");
    const found = await list(t, token, { search: "m4@panel" });
    assertEquals(found.json.result.data.map((m: { _id: string }) => m._id), [ID(4)]);
    const byAttempts = await list(t, token, { sortBy: "attempts", sortDir: "desc", limit: 2 });
    assertEquals(byAttempts.json.result.data.map((m: { _id: string }) => m._id), [ID(6), ID(4)]);
    assertEquals(byAttempts.json.result.metadata.total, 7);
    // and its CSV
    const csv = await t.call("POST", "/admin/email/outbox?format=csv", { token, body: {} });
    assertEquals(csv.status, 200);
    assertMatch(csv.text, /Queued at,To,Subject,State,Attempts,Next attempt,Server's answer/);
    assertMatch(csv.text, /m4@panel\.example,Mail 4,Retrying,3,/);
  } finally {
    await t.close();
  }
});

Deno.test("outbox: one mail's message, both parts and its files; an unknown id is a 404", async () => {
  const t = await testApp();
  try {
    await seed(t);
    const token = await t.tokenFor("ADMIN");
    const r = await t.call("GET", `/admin/email/outbox/${ID(3)}`, { token });
    assertEquals(r.status, 200, r.text);
    assertEquals(r.json.result.state, "sent");
    assertEquals(r.json.result.bodyHtml, "<p>Mail 3</p>");
    assertEquals(r.json.result.bodyText, "Mail 3");
    assertEquals(r.json.result.attachments, [{ filename: "report.png", contentType: "image/png" }]);
    for (const id of [ID(99), "not-an-id", "'%20or%201=1"]) {
      const missing = await t.call("GET", `/admin/email/outbox/${id}`, { token });
      assertEquals(missing.status, 404, id);
      assertEquals(missing.json.message, "E-mail not found");
      assertEquals((await t.call("POST", `/admin/email/outbox/${id}/resend`, { token })).status, 404);
      assertEquals((await t.call("POST", `/admin/email/outbox/${id}/cancel`, { token })).status, 404);
    }
  } finally {
    await t.close();
  }
});

Deno.test("outbox: cancel a queued or failed mail; resend a failed or cancelled one (same row) or a sent one (a copy); 409 otherwise; logged", async () => {
  const t = await testApp();
  try {
    await seed(t);
    const token = await t.tokenFor("SUPERADMIN");
    const call = (id: string, what: "resend" | "cancel") =>
      t.call("POST", `/admin/email/outbox/${id}/${what}`, { token });

    const cancelled = await call(ID(1), "cancel");
    assertEquals(cancelled.status, 200, cancelled.text);
    assertEquals(cancelled.json.result.state, "cancelled");
    assertEquals(cancelled.json.message, "E-mail cancelled: it will not be sent");
    assertEquals((await call(ID(4), "cancel")).json.result.state, "cancelled", "a retrying mail stops");
    for (
      const [id, what, message] of [
        [ID(1), "cancel", "This e-mail is cancelled already"],
        [ID(2), "cancel", "This e-mail is being sent now and cannot be cancelled"],
        [ID(3), "cancel", "This e-mail was sent already"],
        [ID(2), "resend", "This e-mail is being sent now"],
      ] as const
    ) {
      const r = await call(id, what);
      assertEquals(r.status, 409, `${what} ${id}`);
      assertEquals(r.json.message, message);
    }

    // a mail refused for good is queued again, its attempts counted afresh
    const again = await call(ID(5), "resend");
    assertEquals(again.status, 200, again.text);
    assertEquals([again.json.result._id, again.json.result.state, again.json.result.attempts], [
      ID(5),
      "queued",
      0,
    ]);
    assertEquals(again.json.result.lastError, "");
    assertEquals(
      again.json.message,
      "1 e-mail queued: no mail server is configured, so it waits in the outbox (Support > E-mail)",
    );
    assertEquals((await call(ID(5), "resend")).status, 409, "queued already");
    assertEquals((await call(ID(1), "resend")).json.result.state, "queued", "a cancelled mail goes back");

    // a sent mail is sent again as a copy: the sent one stays as it was
    const copy = await call(ID(3), "resend");
    assertEquals(copy.status, 200);
    assert(copy.json.result._id !== ID(3));
    assertEquals([copy.json.result.toAddress, copy.json.result.subject, copy.json.result.state], [
      "m3@panel.example",
      "Mail 3",
      "queued",
    ]);
    const stored = await t.deps.db.selectFrom("email_outbox").selectAll().where(
      "id",
      "=",
      copy.json.result._id,
    )
      .executeTakeFirstOrThrow();
    assertEquals([stored.bodyHtml, stored.bodyText], ["<p>Mail 3</p>", "Mail 3"]);
    assertEquals(JSON.parse(stored.attachments).length, 1, "with its files");
    const original = await t.call("GET", `/admin/email/outbox/${ID(3)}`, { token });
    assertEquals(original.json.result.state, "sent");

    const log = await t.deps.db.selectFrom("system_logs").select("activity").where("module", "=", "E-mail")
      .orderBy("createdAt").orderBy("id").execute();
    assertEquals(log.map((l) => l.activity), [
      'Cancelled the e-mail "Mail 1" to m1@panel.example (queued)',
      'Cancelled the e-mail "Mail 4" to m4@panel.example (retrying)',
      'Queued the e-mail "Mail 5" to m5@panel.example again (after 1 failed attempt)',
      'Queued the e-mail "Mail 1" to m1@panel.example again (after it was cancelled)',
      'Queued a copy of the sent e-mail "Mail 3" to m3@panel.example',
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("outbox: a resent mail is delivered to a real SMTP server; the answer says queued, not sent", async () => {
  const smtp = await startSmtp();
  const t = await testApp({ SMTP_URL: smtp.url, SMTP_FROM: "ops@samplex.test" });
  try {
    await seed(t);
    const token = await t.tokenFor("ADMIN");
    const r = await t.call("POST", `/admin/email/outbox/${ID(5)}/resend`, { token });
    assertEquals(r.status, 200, r.text);
    assertEquals(r.json.message, "1 e-mail queued: Support > E-mail shows when it is sent");
    await t.deps.services.mail.idle();
    assert(smtp.messages.some((m) => m.to.includes("m5@panel.example")), "delivered");
    const after = await t.call("GET", `/admin/email/outbox/${ID(5)}`, { token });
    assertEquals([after.json.result.state, after.json.result.attempts], ["sent", 1]);
  } finally {
    await t.close();
    await smtp.close();
  }
});

Deno.test("outbox: only the roles that read the System Logs; bad list bodies are 400s", async () => {
  const t = await testApp();
  try {
    await seed(t);
    for (const role of ["MANAGER", "BDE", "SUBSCRIBER", "APIMANAGER", "SUPPLIER"] as const) {
      await expectGuarded(t, "POST", "/admin/email/outbox", role, {});
      await expectGuarded(t, "GET", `/admin/email/outbox/${ID(1)}`, role);
      await expectGuarded(t, "POST", `/admin/email/outbox/${ID(1)}/resend`, role);
      await expectGuarded(t, "POST", `/admin/email/outbox/${ID(1)}/cancel`, role);
    }
    const states = await t.deps.db.selectFrom("email_outbox").select("status").orderBy("id").execute();
    assertEquals(states.map((s) => s.status), [
      "queued",
      "sending",
      "sent",
      "failed",
      "failed",
      "failed",
      "cancelled",
    ]);
    const token = await t.tokenFor("ADMIN");
    for (
      const body of [
        { limit: "lots" },
        { pageNo: -1 },
        { search: "x".repeat(5_000) },
        { sortDir: "sideways" },
        { filter: "retrying" },
      ]
    ) {
      const r = await t.call("POST", "/admin/email/outbox", { token, body });
      assertEquals(r.status, 400, JSON.stringify(body).slice(0, 80));
      assert(typeof r.json.message === "string" && r.json.message.length > 0);
    }
    assertEquals((await t.call("POST", "/admin/email/outbox", { token, raw: "{oops" })).status, 400);
  } finally {
    await t.close();
  }
});

Deno.test("e-mail wording: project mails are logged and answered as queued, not sent", async () => {
  const t = await testApp({ PUBLIC_URL: "https://go.samplex.test" });
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t, { clientEmail: "pm@buyer.example" });
    const child = await makeChild(t, parent);
    for (let i = 0; i < 3; i++) {
      const s = await makeSupplier(t, { isEmailNotification: true });
      await t.call("POST", "/admin/supplierMap/add", {
        token,
        body: { projectId: child._id, supplierId: s._id, supplierCPI: 1.25 },
      });
    }
    const r = await t.call("POST", "/admin/email/send", {
      token,
      body: { type: "project", projectId: parent._id, emailBody: "<p>Fieldwork starts today.</p>" },
    });
    assertEquals(r.status, 200, r.text);
    assertEquals(
      r.json.message,
      "3 e-mails queued: no mail server is configured, so they wait in the outbox (Support > E-mail)",
    );
    const report = await t.call("POST", "/admin/email/send/report", {
      token,
      body: { projectId: parent._id },
    });
    assertEquals(report.status, 200, report.text);
    const log = await t.deps.db.selectFrom("system_logs").select("activity").where(
      "recordId",
      "=",
      parent._id,
    )
      .where("module", "=", "Projects").orderBy("createdAt").orderBy("id").execute();
    const mailLines = log.map((l) => l.activity).filter((a) => /e-mail/i.test(a));
    assertEquals(mailLines, [
      "Queued an e-mail to the project's suppliers (3 e-mails)",
      "Queued a progress report for the client (1 e-mail)",
    ]);
    assert(!log.some((l) => /^Sent /.test(l.activity)), "nothing says sent");
  } finally {
    await t.close();
  }
});

Deno.test("the text part keeps every link's address", async () => {
  assertEquals(
    htmlToText('<p>Open <a href="https://x.example/s?a=1&amp;b=2">Click</a> now</p>'),
    "Open Click (https://x.example/s?a=1&b=2) now",
  );
  assertEquals(
    htmlToText("<a href='https://x.example'><b>Your</b> link</a>"),
    "Your link (https://x.example)",
  );
  assertEquals(
    htmlToText('<a href="https://x.example">https://x.example</a>'),
    "https://x.example",
    "not twice",
  );
  assertEquals(htmlToText('<a href="mailto:ops@x.example">Write to us</a>'), "Write to us (ops@x.example)");
  assertEquals(htmlToText('<a href="#top">Top</a>'), "Top");
  // and the stored text part of a queued mail (the bulk e-mail's)
  const smtp = await startSmtp();
  const t = await testApp({ SMTP_URL: smtp.url, SMTP_FROM: "ops@samplex.test" });
  try {
    const token = await t.tokenFor("ADMIN");
    await makeSupplier(t, { isEmailNotification: true, supplierEmail: "links@panel.example" });
    const r = await t.call("POST", "/admin/email/supplier/bulk/send", {
      token,
      body: { emailBody: '<p>See <a href="https://go.samplex.test/offers">the new offers</a>.</p>' },
    });
    assertEquals(r.status, 200, r.text);
    const [row] = await t.deps.db.selectFrom("email_outbox").selectAll().execute();
    assertEquals(row.bodyText, "See the new offers (https://go.samplex.test/offers).");
    await t.deps.services.mail.idle();
    assertEquals(smtp.messages.length, 1);
    assertMatch(
      decodeQp(smtp.messages[0].raw),
      /See the new offers \(https:\/\/go\.samplex\.test\/offers\)\./,
    );
  } finally {
    await t.close();
    await smtp.close();
  }
});
