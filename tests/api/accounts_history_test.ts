/**
 * Accounts keep their history (issue 21, item 6): Upload Ref. No. refuses, by line and name, to
 * replace the reference of an invoice or purchase order already Paid unless the upload says
 * `overwrite`; every change of a reference is in the system log with its old and new value; and
 * Finances' "Export supplier map" is that supplier's maps as a streamed CSV, named for it.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { day, makeClient, makeSupplier, readyProject } from "../helpers/accounts.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";
import * as Acc from "../../shared/api/accounts.ts";

const dmy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

async function logsOf(t: TestApp, recordId: string): Promise<string[]> {
  const rows = await t.deps.db.selectFrom("system_logs").select("activity").where("recordId", "=", recordId)
    .orderBy("createdAt").orderBy("id").execute();
  return rows.map((r) => r.activity);
}

async function twoInvoices(t: TestApp, token: string) {
  const client = await makeClient(t);
  const ids: string[] = [];
  for (const code of ["A", "B"]) {
    const r = await t.api(Acc.addInvoiceCall, {
      token,
      body: {
        clientId: client._id,
        netTerms: 30,
        currentDate: day(),
        dueDate: day(30),
        projects: [{
          projectCode: code,
          projectName: `Work ${code}`,
          poNumber: "",
          complete: 2,
          cpi: 5,
          total: 10,
        }],
      },
    });
    assertEquals(r.status, 200, r.text);
    ids.push(r.json.result.invoice._id);
  }
  return ids;
}

Deno.test("accounts history: Upload Ref. No. refuses to replace a Paid invoice's reference unless told to overwrite; the log keeps old and new", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const [first, second] = await twoInvoices(t, token);
    const upload = (data: string[][], overwrite?: unknown) =>
      t.api(Acc.uploadInvoiceRefsCall, {
        token,
        bad: overwrite === undefined ? { data } : { data, overwrite },
      });
    const stored = async () =>
      await t.deps.db.selectFrom("invoices").select([
        "invoiceCode",
        "referenceNo",
        "recievedDate",
        "invoiceStatus",
      ])
        .orderBy("invoiceCode").execute();

    const paid = await upload([["INV10001", "UTR-1", "20/11/2026"]]);
    assertEquals(paid.status, 200, paid.text);
    assertEquals(paid.json.result.updated, 1);
    assertEquals(
      (await logsOf(t, first)).at(-1),
      'Invoice INV10001 marked Paid, reference (none) -> "UTR-1", ' +
        "received (none) -> 20/11/2026 (Upload Ref. No., line 1)",
    );

    // a file that would replace it is refused whole, naming the line and what is stored; the
    // pending invoice on the same file is not paid either
    const again = await upload([["INV10002", "UTR-2"], ["inv10001", "UTR-9", "21/11/2026"]]);
    assertEquals(again.status, 409, again.text);
    assertEquals(
      again.json.message,
      'Line 2: INV10001 is already Paid (reference "UTR-1", received 20/11/2026). ' +
        "Upload again with overwrite to replace its reference",
    );
    assertEquals(again.json.errors, [{
      path: "data",
      message: 'Line 2: INV10001 is already Paid (reference "UTR-1", received 20/11/2026)',
    }]);
    assertEquals((await stored()).map((r) => [r.referenceNo, r.recievedDate, r.invoiceStatus]), [
      ["UTR-1", "2026-11-20", 2],
      ["", null, 1],
    ]);
    // the same reference and day again change nothing: not refused, not logged
    const same = await upload([["INV10001", "UTR-1", "2026-11-20"]]);
    assertEquals([same.status, same.json.result.updated], [200, 0]);
    assertEquals((await logsOf(t, first)).length, 2, "the invoice's creation and its one reference");
    // a malformed flag is a 400, not a silent false
    assertEquals((await upload([["INV10001", "UTR-9"]], "yes")).status, 400);

    // with overwrite the file goes through; the log has the old and the new value
    const over = await upload([["INV10002", "UTR-2"], ["INV10001", "UTR-9", "21/11/2026"]], true);
    assertEquals(over.status, 200, over.text);
    assertEquals([over.json.result.updated, over.json.result.overwritten], [2, ["INV10001"]]);
    assertEquals((await stored()).map((r) => [r.referenceNo, r.recievedDate]), [
      ["UTR-9", "2026-11-21"],
      ["UTR-2", day()],
    ]);
    assertEquals(
      (await logsOf(t, first)).at(-1),
      'Invoice INV10001 reference "UTR-1" -> "UTR-9", ' +
        "received 20/11/2026 -> 21/11/2026 (Upload Ref. No., line 2, overwrite)",
    );
    assertEquals(
      (await logsOf(t, second)).at(-1),
      'Invoice INV10002 marked Paid, reference (none) -> "UTR-2", ' +
        `received (none) -> ${dmy(day())} (Upload Ref. No., line 1)`,
    );

    // the status edit logs a reference change the same way
    const edit = await t.api(Acc.updateInvoiceCall, {
      params: { id: first },
      token,
      body: { referenceNo: "UTR-10", recievedDate: "2026-11-22", comment: "", invoiceStatus: 2 },
    });
    assertEquals(edit.status, 200, edit.text);
    assertEquals(
      (await logsOf(t, first)).at(-1),
      'Invoice INV10001 marked Paid (reference "UTR-9" -> "UTR-10", ' +
        "received 21/11/2026 -> 22/11/2026)",
    );
  } finally {
    await t.close();
  }
});

Deno.test("accounts history: a Paid purchase order's reference is refused the same way", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const supplier = await makeSupplier(t);
    await readyProject(t, { supplier: { _id: supplier._id, approved: 10, supplierCPI: 2 } });
    const po = await t.api(Acc.addPurchaseOrderCall, {
      token,
      body: { supplierId: supplier._id },
    });
    assertEquals(po.status, 200, po.text);
    const up = (data: string[][], overwrite = false) =>
      t.api(Acc.uploadPurchaseOrderRefsCall, { token, body: { data, overwrite } });
    assertEquals((await up([["PO10001", "REF-1", "01/12/2026"]])).status, 200);
    const refused = await up([["PO10001", "REF-2"]]);
    assertEquals(refused.status, 409);
    assertMatch(
      refused.json.message,
      /^Line 1: PO10001 is already Paid \(reference "REF-1", received 01\/12\/2026\)/,
    );
    assertEquals((await up([["PO10001", "REF-2", "02/12/2026"]], true)).status, 200);
    assertEquals(
      (await logsOf(t, po.json.result.purchaseOrder._id)).at(-1),
      'Purchase order PO10001 reference "REF-1" -> "REF-2", received 01/12/2026 -> 02/12/2026 ' +
        "(Upload Ref. No., line 1, overwrite)",
    );
  } finally {
    await t.close();
  }
});

Deno.test("accounts history: Export supplier map is the supplier's reconciled maps as CSV, named for it; its page names the supplier", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const supplier = await makeSupplier(t, { supplierName: "=Panel One", supplierShortCode: "PONE" });
    const other = await makeSupplier(t);
    const a = await readyProject(t, { supplier: { _id: supplier._id, approved: 40, supplierCPI: 1.25 } });
    const b = await readyProject(t, {
      status: PROJECT_STATUS.INVOICED,
      supplier: { _id: supplier._id, approved: 30, supplierCPI: 2, adminApproved: 28 },
    });
    // not reconciled work, and another supplier's
    await readyProject(t, {
      status: PROJECT_STATUS.LIVE,
      supplier: { _id: supplier._id, approved: 9, supplierCPI: 9 },
    });
    await readyProject(t, { supplier: { _id: other._id, approved: 5, supplierCPI: 1 } });

    const res = await t.api(Acc.listSupplierProjects, {
      params: { supplierId: supplier._id },
      search: { format: "csv" },
      token,
      body: { pageNo: 1 },
    });
    assertEquals(res.status, 200);
    assertMatch(res.headers.get("content-type") ?? "", /^text\/csv/);
    assertMatch(
      res.headers.get("content-disposition") ?? "",
      /filename="supplier-map-PONE-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const lines = res.text.replace(/^\uFEFF/, "").split("\r\n").filter(Boolean);
    assertEquals(
      lines[0],
      "Supplier name,Supplier map ID,Project code,Title,Client name,Supplier CPI,Total accepted,Total cost ($),PO number",
    );
    const maps = await t.deps.db.selectFrom("supplier_maps").select(["id", "projectId"])
      .where("supplierId", "=", supplier._id).execute();
    const mapOf = (childId: string) => maps.find((m) => m.projectId === childId)!.id;
    const codeOf = async (id: string) =>
      (await t.deps.db.selectFrom("projects").select("projectCode").where("id", "=", id)
        .executeTakeFirstOrThrow())
        .projectCode;
    const rows = lines.slice(1).sort();
    const expected = [
      // a formula-looking name is escaped; the admin-approved 28 is what is paid for
      `'=Panel One,${mapOf(a.childId)},${await codeOf(a.childId)},`,
      `'=Panel One,${mapOf(b.childId)},${await codeOf(b.childId)},`,
    ].sort();
    assertEquals(rows.length, 2, rows.join("\n"));
    rows.forEach((r, i) => assert(r.startsWith(expected[i]), `${r} / ${expected[i]}`));
    assert(rows.some((r) => r.endsWith(",1.25,40,50.00,")), rows.join("\n"));
    assert(rows.some((r) => r.endsWith(",2.00,28,56.00,")), rows.join("\n"));

    // the page's answer names the supplier; an unknown supplier is a 404
    const page = await t.api(Acc.listSupplierProjects, {
      params: { supplierId: supplier._id },
      token,
      body: {},
    });
    assertEquals(page.json.result.metadata.supplierName, "=Panel One");
    assertEquals(page.json.result.metadata.supplierCode, "PONE");
    assertEquals(page.json.result.data[0].supplierName, "=Panel One");
    const unknown = await t.api(Acc.listSupplierProjects, {
      params: { supplierId: "0".repeat(24) },
      token,
      body: {},
    });
    assertEquals(unknown.status, 404);
    const wrongRole = await t.api(Acc.listSupplierProjects, {
      params: { supplierId: supplier._id },
      as: "BDE",
      body: {},
    });
    assertEquals(wrongRole.status, 403);
  } finally {
    await t.close();
  }
});
