/**
 * The domain stamps rows and log entries with the app's clock (Deps.now), not the wall clock: users,
 * clients, suppliers, the library, the e-mail outbox (queued and delivered), accounts' issuing
 * companies, and the project list's date windows.
 */
import { assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { created, supplierBody } from "../helpers/master.ts";
import { startSmtp } from "../helpers/smtp.ts";
import { createSmtpMailer } from "../../server/domain/email/mailer.ts";
import { makeClient } from "../helpers/fixtures.ts";

const at = (ms: number) => new Date(ms).toISOString();

Deno.test("clock: user, client, supplier, library and e-mail writes carry the app's time (Deps.now), rows and logs", async () => {
  const smtp = await startSmtp();
  const mailer = createSmtpMailer(smtp.url, "ops@samplex.test", { retryDelaysMs: [0] });
  let time = Date.parse("2024-02-03T04:05:06.000Z");
  const t = await testApp({}, { now: () => time, mailer });
  const db = t.deps.db;
  const logAt = async (recordId: string) =>
    (await db.selectFrom("system_logs").select("createdAt").where("recordId", "=", recordId)
      .orderBy("createdAt").execute()).map((r) => r.createdAt);
  try {
    const token = await t.tokenFor("SUPERADMIN");

    // users: created (API), then moved clock, then updated
    const user = await created(t, token, "/admin/user/add", {
      firstName: "Clock",
      lastName: "Watcher",
      email: "clock.watcher@samplex.test",
      phoneNumber: "",
      role: "ADMIN",
      password: "Passw0rd!",
      isActive: true,
    });
    const userCreated = time;
    time += 3_600_000;
    const upd = await t.call("PUT", `/admin/user/update/${user._id}`, { token, body: { isActive: false } });
    assertEquals(upd.status, 200, upd.text);
    assertEquals(
      await db.selectFrom("users").select(["createdAt", "updatedAt"]).where("id", "=", user._id)
        .executeTakeFirstOrThrow(),
      { createdAt: at(userCreated), updatedAt: at(time) },
    );
    assertEquals(await logAt(user._id), [at(userCreated), at(time)]);

    // clients: create, then update at a later app time
    time += 60_000;
    const client = await makeClient(t);
    const clientCreated = time;
    time += 60_000;
    const cu = await t.call("PUT", `/admin/client/update/${client._id}`, {
      token,
      body: { isActive: false },
    });
    assertEquals(cu.status, 200, cu.text);
    assertEquals(
      await db.selectFrom("clients").select(["createdAt", "updatedAt"]).where("id", "=", client._id)
        .executeTakeFirstOrThrow(),
      { createdAt: at(clientCreated), updatedAt: at(time) },
    );
    assertEquals(await logAt(client._id), [at(clientCreated), at(time)]);

    // library: a category saved, then edited
    time += 60_000;
    const category = await created(t, token, "/admin/category/add", {
      categoryTitle: "Clocks",
      categoryDesc: "Time pieces",
      isActive: true,
    });
    const categoryCreated = time;
    time += 60_000;
    const ce = await t.call("PUT", `/admin/category/update/${category._id}`, {
      token,
      body: { categoryTitle: "Clocks", categoryDesc: "Time pieces, edited", isActive: true },
    });
    assertEquals(ce.status, 200, ce.text);
    assertEquals(
      await db.selectFrom("categories").select(["createdAt", "updatedAt"]).where("id", "=", category._id)
        .executeTakeFirstOrThrow(),
      { createdAt: at(categoryCreated), updatedAt: at(time) },
    );
    assertEquals(await logAt(category._id), [at(categoryCreated), at(time)]);

    // suppliers: created at the app's time
    time += 60_000;
    const supplier = await created(
      t,
      token,
      "/admin/supplier/add",
      supplierBody({ supplierEmail: "tick@panel.example" }),
    );
    assertEquals(
      (await db.selectFrom("suppliers").select("createdAt").where("id", "=", supplier._id)
        .executeTakeFirstOrThrow()).createdAt,
      at(time),
    );

    // e-mail: queued at the app's time; delivered (in the background, after the answer) at the app's time
    time += 60_000;
    const queuedAt = time;
    const sent = await t.call("POST", "/admin/email/supplier/bulk/send", {
      token,
      body: { subject: "Tick", emailBody: "<p>Tock</p>" },
    });
    assertEquals(sent.status, 200, sent.text);
    await t.deps.services.mail.idle();
    const mails = await db.selectFrom("email_outbox").select(["status", "createdAt", "sentAt", "updatedAt"])
      .execute();
    assertEquals(mails, [{
      status: "sent",
      createdAt: at(queuedAt),
      sentAt: at(queuedAt),
      updatedAt: at(queuedAt),
    }]);
    assertEquals(smtp.messages.length, 1);
    const log = await db.selectFrom("system_logs").select("createdAt").where("module", "=", "E-mail")
      .executeTakeFirstOrThrow();
    assertEquals(log.createdAt, at(queuedAt));
  } finally {
    await t.deps.services.mail.idle();
    mailer.close();
    await t.close();
    await smtp.close();
  }
});
