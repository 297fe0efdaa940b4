/**
 * Accounts (part 2: 2 "Accounts", 3-5, 7 "Accounts"): invoices (codes, totals, due dates, the
 * projects they bill, status edit, PDF), Ready To Invoice and Archieved, manual projects, supplier
 * finances and purchase orders, the Upload Ref. No. calls, issuing companies; every call's guard.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { type ApiInput, expectCallGuarded, type TestApp, testApp } from "../helpers/app.ts";
import { day, makeClient, makeSupplier, readyProject } from "../helpers/accounts.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";
import { invoicedAmounts } from "../../server/domain/accounts/invoices.ts";
import { MSG } from "../../shared/messages.ts";
import * as Acc from "../../shared/api/accounts.ts";
import type { AnyContract } from "../../shared/api/contract.ts";

const line = (
  p: { _id: string; projectCode: string; projectName: string },
  complete: number,
  cpi: number,
) => ({
  projectId: p._id,
  projectCode: p.projectCode,
  projectName: p.projectName,
  poNumber: "PO-7788",
  complete,
  cpi,
  total: Math.round(complete * cpi * 100) / 100,
});
const manualLine = (code: string, complete: number, cpi: number, total = complete * cpi) => ({
  projectCode: code,
  projectName: `Manual work ${code}`,
  poNumber: "",
  complete,
  cpi,
  total,
});

async function invoice(t: TestApp, token: string, body: Record<string, unknown>) {
  return await t.api(Acc.addInvoiceCall, {
    token,
    // the body under test, valid or not: sent as is
    bad: { netTerms: 30, currentDate: day(), dueDate: day(30), ...body },
  });
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${dir}/x.pdf`, bytes);
    const out = await new Deno.Command("pdftotext", { args: ["-layout", `${dir}/x.pdf`, "-"] }).output();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("accounts: an accountant generates an invoice for Ready To Invoice projects; totals, code, issuer, and the projects become Invoiced", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const client = await makeClient(t, {
      netDays: "30",
      company: "Acme Research LLC",
      address1: "1 Main St",
    });
    const a = await readyProject(t, { clientId: client._id, complete: 120, cpi: 2.5 });
    const b = await readyProject(t, { clientId: client._id, complete: 40, cpi: 3.1 });
    const other = await readyProject(t, { complete: 5, cpi: 1 });

    // the Ready To Invoice tab lists the three, with figures summed over the children
    const ready = await t.api(Acc.listReadyToInvoice, { token, body: { pageNo: 1, limit: 20 } });
    assertEquals(ready.status, 200);
    assertEquals(ready.json.result.metadata.total, 3);
    const rowA = ready.json.result.data.find((r: { _id: string }) => r._id === a._id);
    assertEquals([rowA.complete, rowA.cpi, rowA.total, rowA.poNumber], [120, 2.5, 300, "PO-7788"]);
    assertEquals(rowA.projectStatusLabel, "Ready To Invoice");

    // the generate form's projects: only this client's
    const opts = await t.api(Acc.invoiceProjectsCall, {
      token,
      body: { clientId: client._id },
    });
    assertEquals(opts.json.result.map((p: { _id: string }) => p._id).sort(), [a._id, b._id].sort());

    const code = await t.api(Acc.nextInvoiceCodeCall, { token });
    assertEquals(code.json.result.invoiceCode, "INV10001");
    // line b's total is typed (a discount): the grand total is the sum of the line totals
    const r = await invoice(t, token, {
      clientId: client._id,
      projects: [line(a, 120, 2.5), { ...line(b, 40, 3.1), total: 120 }],
    });
    assertEquals(r.status, 200, r.text);
    const inv = r.json.result.invoice;
    assertEquals(inv.invoiceCode, "INV10001");
    assertEquals(inv.total, 420);
    assertEquals(inv.projects.map((l: { total: number }) => l.total), [300, 120]);
    assertEquals([inv.invoiceStatus, inv.invoiceStatusLabel, inv.netTerms], [1, "Pending", 30]);
    assertEquals(inv.issuer.accountMarker, "");
    assertEquals(inv.client.company, "Acme Research LLC");
    assertEquals(r.json.result.apiUrl, `/api/v1/admin/invoice/download/${inv._id}`);
    assertEquals(r.json.message, "Invoice INV10001 generated successfully");

    // a project's invoice page finds the invoice that bills it (from the group or a child), or none
    const page = (id: string, as = token) =>
      t.api(Acc.projectInvoiceCall, { params: { projectId: id }, token: as });
    assertEquals((await page(a._id)).json.result.invoiceId, inv._id);
    const childOfA = await t.deps.db.selectFrom("projects").select("id").where("parentProjectId", "=", a._id)
      .executeTakeFirstOrThrow();
    assertEquals((await page(childOfA.id)).json.result.invoiceCode, "INV10001");
    const none = (await page(other._id)).json.result;
    assertEquals([none.invoiceId, none.projectId], [null, other._id]);
    assertEquals((await page("0".repeat(24))).status, 404);
    assertEquals((await page("nope")).status, 404);
    assertEquals((await page(a._id, await t.tokenFor("BDE"))).status, 403);

    // the projects are Invoiced (children too), and off the Ready To Invoice tab
    const statuses = await t.deps.db.selectFrom("projects").select(["id", "projectStatus"])
      .where("id", "in", [a._id, a.childId, b._id, other._id]).execute();
    const s = new Map(statuses.map((x) => [x.id, x.projectStatus]));
    assertEquals([s.get(a._id), s.get(a.childId), s.get(b._id), s.get(other._id)], [5, 5, 5, 4]);
    const after = await t.api(Acc.listReadyToInvoice, { token, body: {} });
    assertEquals(after.json.result.data.map((x: { _id: string }) => x._id), [other._id]);

    // the list shows it; the next code moves on
    const list = await t.api(Acc.listInvoices, { token, body: { pageNo: 1, limit: 20 } });
    const row = list.json.result.data[0];
    assertEquals([row.invoiceCode, row.clientName, row.total, row.invoiceStatusLabel], [
      "INV10001",
      client.clientName,
      420,
      "Pending",
    ]);
    assertEquals(row.projectCodes, `${a.projectCode}, ${b.projectCode}`);
    assertEquals([row.complete, row.sampleSize], [160, 400]);
    assertEquals(
      (await t.api(Acc.nextInvoiceCodeCall, { token })).json.result.invoiceCode,
      "INV10002",
    );

    // a project on an invoice cannot go on another
    const again = await invoice(t, token, { clientId: client._id, projects: [line(a, 1, 1)] });
    assertEquals(again.status, 409, again.text);
    assertEquals(again.json.message, `Project ${a.projectCode} is already on invoice INV10001`);
    // a project of another client cannot be billed here
    const foreign = await invoice(t, token, { clientId: client._id, projects: [line(other, 1, 1)] });
    assertEquals(foreign.status, 400);
    assertEquals(foreign.json.errors[0].path, "projects.0.projectId");

    // the CSV of the list
    const csv = await t.api(Acc.listInvoices, { search: { format: "csv" }, token, body: {} });
    assertEquals(csv.status, 200);
    assert(csv.text.includes("INV10001") && csv.text.includes("420.00"), csv.text);
  } finally {
    await t.close();
  }
});

Deno.test("accounts: the Canadian entity issues the invoices of a client marked wcanada; a SUPERADMIN edits its bank details", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const ca = await makeClient(t, { wolfAccount: "wcanada", countryId: "CA" });
    const r = await invoice(t, token, { clientId: ca._id, projects: [manualLine("M-1", 10, 2)] });
    assertEquals(r.status, 200, r.text);
    assertEquals(r.json.result.invoice.issuer.accountMarker, "wcanada");
    assertMatch(r.json.result.invoice.issuer.companyName, /Canada/);

    const companies = await t.api(Acc.issuingCompaniesCall, { token });
    assertEquals(companies.json.result.length, 2);
    const canada = companies.json.result.find((c: { accountMarker: string }) =>
      c.accountMarker === "wcanada"
    );
    const body = { ...canada, bankUs: "Beneficiary: Maple Ltd\nAccount 42\nFor further credit to: A/c 42" };
    delete body._id, delete body.accountMarker, delete body.updatedAt;
    // an ADMIN may not edit; a SUPERADMIN may
    const denied = await t.api(Acc.updateIssuingCompanyCall, { params: { id: canada._id }, token, body });
    assertEquals(denied.status, 403);
    const su = await t.tokenFor("SUPERADMIN");
    const ok = await t.api(Acc.updateIssuingCompanyCall, { params: { id: canada._id }, token: su, body });
    assertEquals(ok.status, 200, ok.text);
    const got = await t.api(Acc.getInvoiceCall, { params: { id: r.json.result.invoice._id }, token });
    assertEquals(got.json.result.issuer.bankUs, body.bankUs);
    const blank = await t.api(Acc.updateIssuingCompanyCall, {
      params: { id: canada._id },
      token: su,
      body: { ...body, companyName: " " },
    });
    assertEquals([blank.status, blank.json.message], [400, "Company name  is required"]);
  } finally {
    await t.close();
  }
});

Deno.test("accounts: invoice codes never repeat when invoices are generated at once", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const client = await makeClient(t);
    const results = await Promise.all(
      Array.from(
        { length: 12 },
        (_, i) => invoice(t, token, { clientId: client._id, projects: [manualLine(`X${i}`, i + 1, 2)] }),
      ),
    );
    results.forEach((r) => assertEquals(r.status, 200, r.text));
    const codes = results.map((r) => r.json.result.invoice.invoiceCode as string);
    assertEquals(new Set(codes).size, 12);
    assertEquals(
      [...codes].sort(),
      Array.from({ length: 12 }, (_, i) => `INV${10001 + i}`),
    );
    const rows = await t.deps.db.selectFrom("invoices").select("invoiceCode").execute();
    assertEquals(rows.length, 12);
  } finally {
    await t.close();
  }
});

Deno.test("accounts: the submit, net terms and due date rules of Generate Invoice", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const client = await makeClient(t);
    const noClient = await invoice(t, token, { projects: [manualLine("A", 1, 1)] });
    assertEquals([noClient.status, noClient.json.message], [400, MSG.clientRequired]);
    const noLines = await invoice(t, token, { clientId: client._id, projects: [] });
    assertEquals([noLines.status, noLines.json.message], [400, "Add at least one project to the invoice"]);
    const past = await invoice(t, token, {
      clientId: client._id,
      projects: [manualLine("A", 1, 1)],
      currentDate: day(-5),
      dueDate: day(25),
    });
    assertEquals([past.status, past.json.message], [400, "The invoice date cannot be earlier than today"]);
    const early = await invoice(t, token, {
      clientId: client._id,
      projects: [manualLine("A", 1, 1)],
      netTerms: 30,
      dueDate: day(29),
    });
    assertEquals([early.status, early.json.errors[0].path], [400, "dueDate"]);
    const badLine = await invoice(t, token, {
      clientId: client._id,
      projects: [{ ...manualLine("A", 1, 1), total: "lots" }],
    });
    assertEquals([badLine.status, badLine.json.errors[0].path], [400, "projects.0.total"]);
    const fine = await invoice(t, token, {
      clientId: client._id,
      netTerms: 0,
      dueDate: day(),
      projects: [manualLine("A", 3, 1.5)],
    });
    assertEquals([fine.status, fine.json.result.invoice.total], [200, 4.5]);
  } finally {
    await t.close();
  }
});

Deno.test("accounts: the status edit records the payment; the full edit moves projects on and off the invoice", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const client = await makeClient(t);
    const a = await readyProject(t, { clientId: client._id, complete: 10, cpi: 2 });
    const b = await readyProject(t, { clientId: client._id, complete: 20, cpi: 2 });
    const r = await invoice(t, token, { clientId: client._id, projects: [line(a, 10, 2)] });
    const id = r.json.result.invoice._id;

    const missing = await t.api(Acc.updateInvoiceCall, {
      params: { id },
      token,
      body: { comment: "x", invoiceStatus: 2 },
    });
    assertEquals([missing.status, missing.json.message], [400, MSG.referenceRequired]);
    const noDate = await t.api(Acc.updateInvoiceCall, {
      params: { id },
      token,
      body: { referenceNo: "UTR1", comment: "", invoiceStatus: 2 },
    });
    assertEquals([noDate.status, noDate.json.message], [400, MSG.receivedDateRequired]);
    const paid = await t.api(Acc.updateInvoiceCall, {
      params: { id },
      token,
      body: { referenceNo: "UTR1", recievedDate: day(3), comment: "wire", invoiceStatus: 2 },
    });
    assertEquals(paid.status, 200, paid.text);
    assertEquals([
      paid.json.result.invoiceStatusLabel,
      paid.json.result.referenceNo,
      paid.json.result.recievedDate,
    ], [
      "Paid",
      "UTR1",
      day(3),
    ]);

    // swap a for b: a goes back to Ready To Invoice, b becomes Invoiced
    const inv = paid.json.result;
    const edit = await t.api(Acc.updateInvoiceCall, {
      params: { id },
      token,
      body: {
        clientId: client._id,
        netTerms: 10,
        invoiceStatus: 2,
        currentDate: inv.currentDate,
        dueDate: day(10),
        projects: [line(b, 20, 2)],
      },
    });
    assertEquals(edit.status, 200, edit.text);
    assertEquals([edit.json.result.total, edit.json.result.invoiceCode, edit.json.result.referenceNo], [
      40,
      "INV10001",
      "UTR1",
    ]);
    const st = await t.deps.db.selectFrom("projects").select(["id", "projectStatus"]).where("id", "in", [
      a._id,
      b._id,
    ])
      .execute();
    assertEquals(new Map(st.map((x) => [x.id, x.projectStatus])).get(a._id), PROJECT_STATUS.READY_TO_INVOICE);
    assertEquals(new Map(st.map((x) => [x.id, x.projectStatus])).get(b._id), PROJECT_STATUS.INVOICED);
    // the date cannot move back
    const back = await t.api(Acc.updateInvoiceCall, {
      params: { id },
      token,
      body: {
        clientId: client._id,
        netTerms: 0,
        currentDate: day(-1),
        dueDate: day(),
        projects: [line(b, 20, 2)],
      },
    });
    assertEquals([back.status, back.json.message], [
      400,
      "The invoice date cannot be earlier than its present value",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("accounts: the invoice PDF holds real text: its code, the client, every line and the total", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const client = await makeClient(t, { clientName: "Zenith Panels", company: "Zenith Panels GmbH" });
    const a = await readyProject(t, { clientId: client._id, complete: 120, cpi: 2.5 });
    const r = await invoice(t, token, {
      clientId: client._id,
      projects: [line(a, 120, 2.5), manualLine("EXTRA-9", 7, 4, 28), manualLine("ÜBER-Ω", 1, 1.25)],
    });
    assertEquals(r.status, 200, r.text);
    const id = r.json.result.invoice._id;
    const res = await t.app.request(`/api/v1/admin/invoice/download/${id}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("content-type"), "application/pdf");
    assertMatch(res.headers.get("content-disposition") ?? "", /filename="Invoice#INV10001\.pdf"/);
    const text = await pdfText(new Uint8Array(await res.arrayBuffer()));
    for (
      const s of [
        "INV10001",
        "Zenith Panels GmbH",
        a.projectCode,
        a.projectName,
        "$300.00",
        "EXTRA-9",
        "$28.00",
        "ÜBER-Ω",
        "$329.25",
        "Beneficiary bank details (US)",
        "Beneficiary bank details (International)",
        "For further credit to",
        "Service description",
      ]
    ) assert(text.includes(s), `PDF text lacks ${s}:\n${text}`);
  } finally {
    await t.close();
  }
});

Deno.test("accounts: supplier finances, reconciled projects, a purchase order and its PDF, and the Upload Ref. No. calls", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const supplier = await makeSupplier(t, { netDays: "30" });
    const p1 = await readyProject(t, { supplier: { _id: supplier._id, approved: 80, supplierCPI: 1.5 } });
    await readyProject(t, {
      status: PROJECT_STATUS.ARCHIEVED,
      supplier: { _id: supplier._id, approved: 10, supplierCPI: 2, adminApproved: 12 },
    });
    // a project still live is not reconciled work
    await readyProject(t, {
      status: PROJECT_STATUS.LIVE,
      supplier: { _id: supplier._id, approved: 99, supplierCPI: 9 },
    });

    const fin = await t.api(Acc.listSupplierFinances, {
      token,
      body: { pageNo: 1, limit: 100 },
    });
    assertEquals(fin.status, 200, fin.text);
    const row = fin.json.result.data.find((r: { _id: string }) => r._id === supplier._id);
    assertEquals([row.projects, row.totalAccepted, row.totalCost], [2, 92, 144]);

    const projects = await t.api(Acc.listSupplierProjects, {
      params: { supplierId: supplier._id },
      token,
      body: {},
    });
    assertEquals(projects.json.result.metadata.total, 2);
    assert(
      projects.json.result.data.some((r: { projectId: string; totalCost: number }) =>
        r.projectId === p1.childId && r.totalCost === 120
      ),
    );

    const po = await t.api(Acc.addPurchaseOrderCall, {
      token,
      body: { supplierId: supplier._id },
    });
    assertEquals(po.status, 200, po.text);
    const order = po.json.result.purchaseOrder;
    assertEquals([order.poCode, order.total, order.projects.length, order.netTerms], ["PO10001", 144, 2, 30]);
    assertEquals(order.dueDate, day(30));
    // every reconciled map is on it: a second one has nothing to pay
    const none = await t.api(Acc.addPurchaseOrderCall, {
      token,
      body: { supplierId: supplier._id },
    });
    assertEquals(none.status, 409);

    const pdf = await t.app.request(po.json.result.apiUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    assertEquals(pdf.status, 200);
    assertMatch(pdf.headers.get("content-disposition") ?? "", /PO#PO10001\.pdf/);
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    assert(
      text.includes("PO10001") && text.includes(supplier.supplierName) && text.includes("$144.00"),
      text,
    );

    const list = await t.api(Acc.listPurchaseOrders, { token, body: {} });
    assertEquals(list.json.result.data[0].poCode, "PO10001");

    // Upload Ref. No.: all or nothing, naming the line
    const bad = await t.api(Acc.uploadPurchaseOrderRefsCall, {
      token,
      body: { data: [["PO10001", "REF-1"], [""], ["PO99999", "REF-2"]] },
    });
    assertEquals([bad.status, bad.json.message], [400, "Line 3: there is no purchase order PO99999"]);
    const unchanged = await t.api(Acc.listPurchaseOrders, { token, body: {} });
    assertEquals(unchanged.json.result.data[0].referenceNo, "");
    const ok = await t.api(Acc.uploadPurchaseOrderRefsCall, {
      token,
      body: { data: [["po10001", "REF-1", "05/01/2027", "paid"]] },
    });
    assertEquals([ok.status, ok.json.result.updated], [200, 1]);
    const paid = (await t.api(Acc.listPurchaseOrders, { token, body: {} })).json.result.data[0];
    assertEquals([paid.referenceNo, paid.recievedDate, paid.poStatusLabel, paid.comment], [
      "REF-1",
      "2027-01-05",
      "Paid",
      "paid",
    ]);

    // the invoices' upload
    const client = await makeClient(t);
    await invoice(t, token, { clientId: client._id, projects: [manualLine("A", 1, 1)] });
    const up = await t.api(Acc.uploadInvoiceRefsCall, {
      token,
      body: { data: [["INV10001", "UTR-9"]] },
    });
    assertEquals(up.status, 200, up.text);
    const inv = (await t.api(Acc.listInvoices, { token, body: {} })).json.result.data[0];
    assertEquals([inv.referenceNo, inv.recievedDate, inv.invoiceStatusLabel], ["UTR-9", day(), "Paid"]);
    const dup = await t.api(Acc.uploadInvoiceRefsCall, {
      token,
      body: { data: [["INV10001", "A"], ["INV10001", "B"]] },
    });
    assertEquals([dup.status, dup.json.message], [400, "Line 2: INV10001 is already on line 1"]);
    const badDate = await t.api(Acc.uploadInvoiceRefsCall, {
      token,
      body: { data: [["INV10001", "A", "31/02/2026"]] },
    });
    assertEquals(badDate.status, 400);
    const empty = await t.api(Acc.uploadInvoiceRefsCall, { token, body: { data: [] } });
    assertEquals(empty.status, 400);
  } finally {
    await t.close();
  }
});

Deno.test("accounts: a manual project lands on Ready To Invoice; Archieved lists archived projects", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const client = await makeClient(t);
    const noPo = await t.api(Acc.addManualProjectCall, {
      token,
      body: { clientId: client._id, projectCode: "MAN-1", projectName: "Offline study", projectStatus: 6 },
    });
    assertEquals([noPo.status, noPo.json.message], [400, MSG.poNumberRequired]);
    const short = await t.api(Acc.addManualProjectCall, {
      token,
      body: { clientId: client._id, projectCode: "MAN-1", projectName: "Off", projectStatus: 4 },
    });
    assertEquals([short.status, short.json.message], [400, MSG.projectNameRequired]);
    const ok = await t.api(Acc.addManualProjectCall, {
      token,
      body: {
        clientId: client._id,
        projectCode: "man-1",
        projectName: "Offline study",
        projectStatus: 4,
        complete: 50,
        cpi: 3,
      },
    });
    assertEquals(ok.status, 200, ok.text);
    assertEquals(ok.json.result.projectCode, "MAN-1");
    const dup = await t.api(Acc.addManualProjectCall, {
      token,
      body: { clientId: client._id, projectCode: "MAN-1", projectName: "Offline study", projectStatus: 4 },
    });
    assertEquals(dup.status, 409);
    const ready = await t.api(Acc.listReadyToInvoice, { token, body: { search: "MAN-1" } });
    const row = ready.json.result.data[0];
    // the completes typed for a manual project are what it bills: its accepted count
    assertEquals([row.projectCode, row.complete, row.cpi, row.total, row.approved], [
      "MAN-1",
      50,
      3,
      150,
      50,
    ]);

    const archived = await readyProject(t, { status: PROJECT_STATUS.ARCHIEVED });
    const arch = await t.api(Acc.listArchieved, { token, body: {} });
    assertEquals(arch.json.result.data.map((r: { _id: string }) => r._id), [archived._id]);
    const byClient = await t.api(Acc.listReadyToInvoice, {
      token,
      body: { filter: { clientId: [client._id] } },
    });
    assertEquals(byClient.json.result.metadata.total, 1);
  } finally {
    await t.close();
  }
});

Deno.test("accounts: invoicedAmounts sums the invoices' grand totals per day and per month", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const client = await makeClient(t);
    await invoice(t, token, { clientId: client._id, projects: [manualLine("A", 10, 2)] });
    await invoice(t, token, { clientId: client._id, projects: [manualLine("B", 1, 5)] });
    await invoice(t, token, {
      clientId: client._id,
      currentDate: day(1),
      dueDate: day(31),
      projects: [manualLine("C", 1, 7)],
    });
    const byDay = await invoicedAmounts(t.deps.db, { from: day(-1), to: day(5) });
    assertEquals(byDay, [{ date: day(), total: 25, count: 2 }, { date: day(1), total: 7, count: 1 }]);
    const byMonth = await invoicedAmounts(t.deps.db, { from: day(), to: day(), by: "month" });
    assertEquals(byMonth, [{ date: day().slice(0, 7), total: 25, count: 2 }]);
  } finally {
    await t.close();
  }
});

Deno.test("accounts: every call refuses no token (401) and a role outside accounts (403); malformed input is a 4xx", async () => {
  const t = await testApp();
  try {
    const id = "0123456789abcdef01234567";
    const calls: [AnyContract, ApiInput<AnyContract>][] = [
      [Acc.listReadyToInvoice, { body: {} }],
      [Acc.listArchieved, { body: {} }],
      [Acc.invoiceProjectsCall, { body: { clientId: id } }],
      [Acc.listInvoices, { body: {} }],
      [Acc.nextInvoiceCodeCall, {}],
      [Acc.addInvoiceCall, { body: {} }],
      [Acc.updateInvoiceCall, { params: { id }, body: {} }],
      [Acc.getInvoiceCall, { params: { id } }],
      [Acc.downloadInvoiceCall, { params: { id }, body: {} }],
      [Acc.uploadInvoiceRefsCall, { body: { data: [] } }],
      [Acc.addManualProjectCall, { body: {} }],
      [Acc.listPurchaseOrders, { body: {} }],
      [Acc.addPurchaseOrderCall, { body: {} }],
      [Acc.downloadPurchaseOrderCall, { params: { id }, body: {} }],
      [Acc.uploadPurchaseOrderRefsCall, { body: { data: [] } }],
      [Acc.listSupplierFinances, { body: {} }],
      [Acc.listSupplierProjects, { params: { supplierId: id }, body: {} }],
      [Acc.issuingCompaniesCall, {}],
      [Acc.updateIssuingCompanyCall, { params: { id }, body: {} }],
    ];
    for (const [call, input] of calls) {
      await expectCallGuarded(t, call, "MANAGER", input);
      await expectCallGuarded(t, call, "SUPPLIER", input);
    }
    await expectCallGuarded(t, Acc.updateIssuingCompanyCall, "ACCOUNTANT", { params: { id }, body: {} });
    const token = await t.tokenFor("ACCOUNTANT");
    for (const [call, input] of calls.filter(([c]) => c.method !== "GET")) {
      if (call === Acc.updateIssuingCompanyCall) continue;
      const r = await t.api(call, { ...input, token, raw: "{not json" });
      assert(r.status === 400 || r.status === 404, `${call.key} gave ${r.status} on bad JSON`);
    }
    // an unknown path and malformed ids in the path itself: spelled literally
    for (
      const path of ["/admin/invoice/nope", "/admin/invoice/download/1", "/admin/invoice/supplier/download/x"]
    ) {
      const r = await t.call(path.includes("download") ? "POST" : "GET", path, { token });
      assertEquals(r.status, 404, path);
    }
    const unknown = await t.api(Acc.getInvoiceCall, { params: { id }, token });
    assertEquals([unknown.status, unknown.json.message], [404, "Invoice not found"]);
    const arr = await t.api(Acc.addInvoiceCall, { token, bad: [1, 2] });
    assertEquals(arr.status, 400);
  } finally {
    await t.close();
  }
});
