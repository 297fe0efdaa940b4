import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectGuarded, testApp } from "../helpers/app.ts";
import { created, supplierBody } from "../helpers/master.ts";
import { closedPort, decodeQp, startSmtp } from "../helpers/smtp.ts";
import { MSG } from "../../shared/messages.ts";
import { createSmtpMailer } from "../../server/domain/email/mailer.ts";
import { GIVE_UP_AFTER_MS, PERMANENT, RETRY_BASE_MS } from "../../server/domain/email/deliver.ts";
import { enqueueMails } from "../../server/domain/email/outbox.ts";
import type { TestApp } from "../helpers/app.ts";

/** Four suppliers; only the first two should get a bulk mail. */
async function suppliers(t: TestApp, token: string) {
  const a = await created(
    t,
    token,
    "/admin/supplier/add",
    supplierBody({ supplierEmail: "alpha@panel.example" }),
  );
  const b = await created(
    t,
    token,
    "/admin/supplier/add",
    supplierBody({ supplierEmail: "beta@panel.example" }),
  );
  await created(
    t,
    token,
    "/admin/supplier/add",
    supplierBody({ supplierEmail: "quiet@panel.example", isEmailNotification: false }),
  );
  await created(
    t,
    token,
    "/admin/supplier/add",
    supplierBody({ supplierEmail: "off@panel.example", isActive: false }),
  );
  const gone = await created(
    t,
    token,
    "/admin/supplier/add",
    supplierBody({ supplierEmail: "gone@panel.example" }),
  );
  await t.call("PUT", `/admin/supplier/update/${gone._id}`, { token, body: { isDeleted: true } });
  return [a, b];
}

const outbox = (t: TestApp) =>
  t.deps.db.selectFrom("email_outbox").selectAll().orderBy("toAddress").execute();

Deno.test("bulk e-mail without a mail server: one mail per notified supplier waits in the outbox, and says so", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const [a, b] = await suppliers(t, token);
    const r = await t.call("POST", "/admin/email/supplier/bulk/send", {
      token,
      body: { emailBody: "<p>New <b>healthcare</b> projects open on Monday.</p><script>alert(1)</script>" },
    });
    assertEquals(r.status, 200, r.text);
    assertEquals(
      r.json.message,
      "E-mail queued for 2 suppliers: no mail server is configured, so they wait in the outbox (Support > E-mail)",
    );
    assertEquals(r.json.result, { queued: 2, mailServer: false });
    const rows = await outbox(t);
    assertEquals(rows.map((m) => [m.toAddress, m.status, m.attempts, m.module, m.recordId]), [
      ["alpha@panel.example", "queued", 0, "E-mail", a._id],
      ["beta@panel.example", "queued", 0, "E-mail", b._id],
    ]);
    assertEquals(rows[0].subject, "A message from Samplex");
    assertEquals(
      rows[0].bodyHtml,
      "<p>New <b>healthcare</b> projects open on Monday.</p>",
      "scripts are dropped",
    );
    assertEquals(rows[0].bodyText, "New healthcare projects open on Monday.");
    const log = await t.deps.db.selectFrom("system_logs").selectAll().where("module", "=", "E-mail")
      .execute();
    assertEquals(log.map((l) => l.activity), ['Queued bulk e-mail "A message from Samplex" to 2 suppliers']);
    // with no mailer a delivery run leaves the mail alone
    assertEquals(await t.deps.services.mail.deliver(), { sent: 0, failed: 0, skipped: true });
    assertEquals((await outbox(t)).map((m) => m.status), ["queued", "queued"]);
  } finally {
    await t.close();
  }
});

Deno.test("bulk e-mail: 'Body is required' for a missing, blank or empty rich-text body; no recipients is a clear 400", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    for (
      const body of [{}, { emailBody: "" }, { emailBody: "   " }, { emailBody: "<p><br></p>" }, {
        emailBody: null,
      }, { emailBody: 5 }]
    ) {
      const r = await t.call("POST", "/admin/email/supplier/bulk/send", { token, body });
      assertEquals(r.status, 400, JSON.stringify(body));
      assertEquals(r.json.message, "Body is required");
      assertEquals(r.json.errors, [{ path: "emailBody", message: "Body is required" }]);
    }
    assertEquals(
      (await t.call("POST", "/admin/email/supplier/bulk/send", { token, raw: "{oops" })).status,
      400,
    );
    const none = await t.call("POST", "/admin/email/supplier/bulk/send", {
      token,
      body: { emailBody: "Hello" },
    });
    assertEquals(none.status, 400);
    assertEquals(none.json.message, MSG.noEmailRecipients);
    assertEquals((await outbox(t)).length, 0);
  } finally {
    await t.close();
  }
});

Deno.test("bulk e-mail with SMTP_URL: delivered after the answer to a real SMTP server, to each supplier", async () => {
  const smtp = await startSmtp();
  const t = await testApp({ SMTP_URL: smtp.url, SMTP_FROM: "Samplex Ops <ops@samplex.test>" });
  try {
    const token = await t.tokenFor("SUPERADMIN");
    await suppliers(t, token);
    const r = await t.call("POST", "/admin/email/supplier/bulk/send", {
      token,
      body: {
        emailBody: "<p>Hello partners, <em>new</em> surveys are live.</p>",
        subject: "Weekly supply update",
      },
    });
    assertEquals(r.status, 200, r.text);
    assertEquals(r.json.message, "E-mail queued for 2 suppliers: Support > E-mail shows when they are sent");
    await t.deps.services.mail.idle();
    assertEquals(smtp.messages.map((m) => m.to).sort(), [["alpha@panel.example"], ["beta@panel.example"]]);
    for (const m of smtp.messages) {
      assertEquals(m.from, "ops@samplex.test");
      assertMatch(m.raw, /^Subject: Weekly supply update\r?$/m);
      const body = decodeQp(m.raw);
      assert(body.includes("<p>Hello partners, <em>new</em> surveys are live.</p>"), "HTML part");
      assert(body.includes("Hello partners, new surveys are live."), "text part");
    }
    const rows = await outbox(t);
    assertEquals(rows.map((m) => [m.status, m.attempts, m.lastError]), [["sent", 1, ""], ["sent", 1, ""]]);
    assert(rows.every((m) => m.sentAt));
  } finally {
    await t.deps.services.mail.idle();
    await t.close();
    await smtp.close();
  }
});

Deno.test("delivery retries: a temporary SMTP failure is retried and the mail is sent on the second attempt", async () => {
  const smtp = await startSmtp({ failFirst: 1 });
  const mailer = createSmtpMailer(smtp.url, "ops@samplex.test", { retryDelaysMs: [0, 0] });
  const t = await testApp({}, { mailer });
  try {
    await enqueueMails(t.deps.db, [{
      to: "retry@panel.example",
      subject: "Hi",
      html: "<p>Body</p>",
      module: "Test",
    }]);
    assertEquals(await t.deps.services.mail.deliver(), { sent: 1, failed: 0, skipped: false });
    const [row] = await outbox(t);
    assertEquals([row.status, row.attempts, row.lastError], ["sent", 2, ""]);
    assertEquals(smtp.messages.length, 1);
  } finally {
    mailer.close();
    await t.close();
    await smtp.close();
  }
});

Deno.test("delivery to a refused connection: every attempt is counted, the last error kept, the mail marked failed", async () => {
  const mailer = createSmtpMailer(`smtp://127.0.0.1:${closedPort()}`, "ops@samplex.test", {
    retryDelaysMs: [0, 0],
  });
  const t = await testApp({}, { mailer });
  try {
    const [id] = await enqueueMails(t.deps.db, [
      { to: "nobody@panel.example", subject: "Hi", html: "<p>Body</p>", module: "Test", recordId: null },
    ]);
    assertEquals(await t.deps.services.mail.deliver(), { sent: 0, failed: 1, skipped: false });
    const row = await t.deps.db.selectFrom("email_outbox").selectAll().where("id", "=", id)
      .executeTakeFirstOrThrow();
    assertEquals([row.status, row.attempts, row.sentAt], ["failed", 3, null]);
    assertMatch(row.lastError, /ECONNREFUSED/);
    // a failed mail is not picked up again by the next run
    assertEquals(await t.deps.services.mail.deliver(), { sent: 0, failed: 0, skipped: false });
  } finally {
    mailer.close();
    await t.close();
  }
});

Deno.test("SMTP down: mail stays in the outbox and goes out once the server is back; the mails behind wait untried", async () => {
  const port = closedPort();
  const mailer = createSmtpMailer(`smtp://127.0.0.1:${port}`, "ops@samplex.test", { retryDelaysMs: [0, 0] });
  let clock = Date.UTC(2026, 5, 1, 9);
  const t = await testApp({}, { mailer, now: () => clock });
  let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;
  try {
    const ids = await enqueueMails(
      t.deps.db,
      ["a", "b", "c"].map((x) => ({
        to: `${x}@panel.example`,
        subject: "Hi",
        html: "<p>Body</p>",
        module: "Test",
      })),
      new Date(clock),
    );
    // the server is down: the first mail uses its attempts, the run stops, the others are not tried
    assertEquals(await t.deps.services.mail.deliver(), { sent: 0, failed: 1, skipped: false });
    const rows = async () =>
      new Map((await outbox(t)).map((r) => [r.id, [r.status, r.attempts] as [string, number]]));
    let now = await rows();
    const first = ids.find((id) => now.get(id)?.[0] === "failed")!;
    const behind = ids.filter((id) => id !== first);
    assertEquals(now.get(first), ["failed", 3]);
    assertEquals(behind.map((id) => now.get(id)), [["queued", 0], ["queued", 0]]);
    // still down a minute later: the failed one is tried once more and waits longer; nothing lost
    clock += RETRY_BASE_MS;
    assertEquals(await t.deps.services.mail.deliver(), { sent: 0, failed: 1, skipped: false });
    now = await rows();
    assertEquals(now.get(first), ["failed", 4]);
    assertEquals(behind.map((id) => now.get(id)), [["queued", 0], ["queued", 0]]);

    smtp = await startSmtp({ port });
    // back: the queued ones go at the next run; the failed one when its retry is due (2 minutes now)
    clock += RETRY_BASE_MS;
    assertEquals(await t.deps.services.mail.deliver(), { sent: 2, failed: 0, skipped: false });
    assertEquals((await rows()).get(first), ["failed", 4]);
    clock += RETRY_BASE_MS;
    assertEquals(await t.deps.services.mail.deliver(), { sent: 1, failed: 0, skipped: false });
    now = await rows();
    assertEquals(ids.map((id) => now.get(id)?.[0]), ["sent", "sent", "sent"]);
    assertEquals(smtp.messages.map((m) => m.to[0]).sort(), [
      "a@panel.example",
      "b@panel.example",
      "c@panel.example",
    ]);
  } finally {
    mailer.close();
    await t.close();
    await smtp?.close();
  }
});

Deno.test("a mail refused for good (5xx) is not retried; one never delivered is given up after three days", async () => {
  const smtp = await startSmtp({ failFirst: 1, failCode: 550 });
  const mailer = createSmtpMailer(smtp.url, "ops@samplex.test", { retryDelaysMs: [0, 0] });
  let clock = Date.UTC(2026, 5, 1, 9);
  const t = await testApp({}, { mailer, now: () => clock });
  try {
    const [refused] = await enqueueMails(t.deps.db, [
      { to: "gone@panel.example", subject: "Hi", html: "<p>Body</p>", module: "Test" },
    ], new Date(clock));
    assertEquals(await t.deps.services.mail.deliver(), { sent: 0, failed: 1, skipped: false });
    const row = async (id: string) =>
      await t.deps.db.selectFrom("email_outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    const r = await row(refused);
    // one attempt: a permanent refusal is not repeated, then or later
    assertEquals([r.status, r.attempts], ["failed", 1]);
    assert(r.lastError.startsWith(PERMANENT), r.lastError);
    clock += 24 * 60 * RETRY_BASE_MS;
    assertEquals(await t.deps.services.mail.deliver(), { sent: 0, failed: 0, skipped: false });
    assertEquals(smtp.messages.length, 0);

    // a mail failed on a temporary error but older than the give-up age stays failed
    const [old] = await enqueueMails(t.deps.db, [
      { to: "late@panel.example", subject: "Hi", html: "<p>Body</p>", module: "Test" },
    ], new Date(clock));
    await t.deps.db.updateTable("email_outbox").set({
      status: "failed",
      attempts: 40,
      lastError: "connect ECONNREFUSED",
      updatedAt: new Date(clock).toISOString(),
    }).where("id", "=", old).execute();
    clock += GIVE_UP_AFTER_MS;
    assertEquals(await t.deps.services.mail.deliver(), { sent: 0, failed: 0, skipped: false });
    assertEquals((await row(old)).status, "failed");
  } finally {
    mailer.close();
    await t.close();
    await smtp.close();
  }
});

Deno.test("bulk e-mail: a missing token is 401, a manager 403", async () => {
  const t = await testApp();
  try {
    await expectGuarded(t, "POST", "/admin/email/supplier/bulk/send", "MANAGER", { emailBody: "Hello" });
    await expectGuarded(t, "POST", "/admin/email/supplier/bulk/send", "SUPPLIER", { emailBody: "Hello" });
  } finally {
    await t.close();
  }
});
