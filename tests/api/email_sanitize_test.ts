/**
 * E-mail HTML is cleaned by the parser-based sanitizer where it is saved (the outbox row a bulk send
 * queues) and again where it is sent (a row stored before, or by anything else, goes out clean).
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { created, supplierBody } from "../helpers/master.ts";
import { deliverPending } from "../../server/domain/email/deliver.ts";
import type { Mailer, OutgoingMail } from "../../server/domain/email/mailer.ts";
import { findings } from "../helpers/html_oracle.ts";
import * as Em from "../../shared/api/email.ts";
import * as Sup from "../../shared/api/suppliers.ts";

/** What a probe got through the old pattern filter to seven suppliers in one bulk send. */
const PROBE = [
  "<p>Spring projects</p>",
  "<svg/onload=alert(1)>",
  "<img src=x onerror=alert(2)//>",
  '<a href="&#106;avascript:alert(3)">open</a>',
  '<a href="jav&#x09;ascript:alert(4)">tab</a>',
  '<form><button formaction="javascript:alert(5)">go</button></form>',
  '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
  '<base href="https://evil.example/">',
].join("");

Deno.test("bulk e-mail: the known bypasses are gone from the saved mail, the message stays", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    for (const n of [1, 2, 3]) {
      await created(t, token, Sup.addSupplier, supplierBody({ supplierEmail: `s${n}@panel.example` }));
    }
    const r = await t.api(Em.sendBulkSupplierEmail, { token, body: { emailBody: PROBE } });
    assertEquals(r.status, 200, r.text);
    const rows = await t.deps.db.selectFrom("email_outbox").selectAll().execute();
    assertEquals(rows.length, 3);
    for (const row of rows) {
      assertEquals(findings(row.bodyHtml), [], row.bodyHtml);
      assert(
        !/onload|onerror|formaction|http-equiv|<base|<meta|<svg|javascript/i.test(row.bodyHtml),
        row.bodyHtml,
      );
      assert(row.bodyHtml.startsWith("<p>Spring projects</p>"), row.bodyHtml);
      assert(row.bodyText.startsWith("Spring projects"), row.bodyText);
    }
  } finally {
    await t.close();
  }
});

Deno.test("e-mail delivery: a row saved before the sanitizer goes out clean", async () => {
  const t = await testApp();
  try {
    const now = new Date(t.deps.now()).toISOString();
    await t.deps.db.insertInto("email_outbox").values({
      id: "legacy-mail",
      toAddress: "old@panel.example",
      subject: "Queued long ago",
      bodyHtml: PROBE,
      bodyText: "Spring projects",
      status: "queued",
      attempts: 0,
      lastError: "",
      module: "E-mail",
      recordId: null,
      createdAt: now,
      updatedAt: now,
      sentAt: null,
      attachments: "[]",
    }).execute();
    const sent: OutgoingMail[] = [];
    const mailer: Mailer = {
      from: "ops@samplex.test",
      retryDelaysMs: [],
      send: (m) => {
        sent.push(m);
        return Promise.resolve();
      },
      close: () => {},
    };
    const report = await deliverPending({ db: t.deps.db, log: t.deps.log, now: t.deps.now, mailer });
    assertEquals(report, { sent: 1, failed: 0, skipped: false });
    assertEquals(sent.length, 1);
    assertEquals(findings(sent[0].html), [], sent[0].html);
    assert(sent[0].html.startsWith("<p>Spring projects</p>"), sent[0].html);
  } finally {
    await t.close();
  }
});
