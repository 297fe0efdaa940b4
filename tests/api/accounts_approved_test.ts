/**
 * Invoices bill what the client approved (issue 21, item 1): a reconciled project's line defaults to
 * its accepted count (the admin-approved count where staff set one, else the approved counter), at a
 * CPI that makes it the approved revenue; Ready To Invoice's total, the client figures and the
 * dashboard count the same completes suppliers are paid for.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { day, makeClient, makeSupplier, readyProject } from "../helpers/accounts.ts";
import { approvedSums, closedProjectsValue } from "../../server/domain/dashboard/figures.ts";
import * as Acc from "../../shared/api/accounts.ts";
import * as Cl from "../../shared/api/clients.ts";
import * as Sup from "../../shared/api/suppliers.ts";

type Row = { _id: string; complete: number; approved: number; cpi: number; total: number };

/**
 * Client C: P (150 completes, 142 approved at $2.90, no supplier) and Q (100 completes, 90 approved at
 * $3.00, its supplier's 90 approved cut to 85 by staff, at supplier CPI $1.20).
 */
async function dataset(t: TestApp) {
  const client = await makeClient(t);
  const supplier = await makeSupplier(t);
  const p = await readyProject(t, { clientId: client._id, complete: 150, approved: 142, cpi: 2.9 });
  const q = await readyProject(t, {
    clientId: client._id,
    complete: 100,
    approved: 90,
    cpi: 3,
    supplier: { _id: supplier._id, approved: 90, supplierCPI: 1.2, adminApproved: 85 },
  });
  return { client, supplier, p, q };
}

Deno.test("accounts approved: Ready To Invoice totals and Generate Invoice lines bill the approved count, the admin-approved one where set", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ACCOUNTANT");
    const { client, supplier, p, q } = await dataset(t);

    const ready = await t.api(Acc.listReadyToInvoice, { token, body: { limit: 20 } });
    assertEquals(ready.status, 200, ready.text);
    const rows = new Map<string, Row>(ready.json.result.data.map((r: Row) => [r._id, r]));
    const rp = rows.get(p._id)!, rq = rows.get(q._id)!;
    // complete stays what the router counted; the total is 142 x $2.90, not 150 x $2.90 = $435.00
    assertEquals([rp.complete, rp.approved, rp.cpi, rp.total], [150, 142, 2.9, 411.8]);
    // staff's 85 replaces the supplier's 90 approved: 85 x $3.00
    assertEquals([rq.complete, rq.approved, rq.cpi, rq.total], [100, 85, 3, 255]);

    // the CSV of the tab says the same
    const csv = await t.api(Acc.listReadyToInvoice, {
      search: { format: "csv" },
      token,
      body: { search: p.projectCode },
    });
    const line = csv.text.split("\r\n")[1];
    assert(line.includes(",150,142,") && line.endsWith("411.80,Ready To Invoice"), line);

    // Generate Invoice: the default line is the approved count, with what the router counted beside it
    const opts = await t.api(Acc.invoiceProjectsCall, {
      token,
      body: { clientId: client._id },
    });
    const op = opts.json.result.find((o: { _id: string }) => o._id === p._id);
    assertEquals([op.complete, op.approved, op.routerComplete, op.cpi, op.total], [
      142,
      142,
      150,
      2.9,
      411.8,
    ]);
    const oq = opts.json.result.find((o: { _id: string }) => o._id === q._id);
    assertEquals([oq.complete, oq.approved, oq.routerComplete, oq.total], [85, 85, 100, 255]);

    // suppliers are paid for the same 85
    const fin = await t.api(Acc.listSupplierFinances, { token, body: {} });
    const f = fin.json.result.data.find((r: { _id: string }) => r._id === supplier._id);
    assertEquals([f.totalAccepted, f.totalCost], [85, 102]);

    // an invoice that bills more than was approved is saved as typed, and its log says by how much
    const typed = await t.api(Acc.addInvoiceCall, {
      token,
      body: {
        clientId: client._id,
        netTerms: 30,
        currentDate: day(),
        dueDate: day(30),
        projects: [
          { ...op, projectId: op._id, complete: 150, total: 435 },
          { ...oq, projectId: oq._id },
        ].map(({ projectId, projectCode, projectName, poNumber, complete, cpi, total }) => ({
          projectId,
          projectCode,
          projectName,
          poNumber,
          complete,
          cpi,
          total,
        })),
      },
    });
    assertEquals(typed.status, 200, typed.text);
    assertEquals(typed.json.result.invoice.total, 690);
    const log = await t.deps.db.selectFrom("system_logs").select("activity")
      .where("recordId", "=", typed.json.result.invoice._id).executeTakeFirstOrThrow();
    assert(log.activity.endsWith(`; ${p.projectCode} bills 150 where 142 were approved (+8)`), log.activity);
    assert(!log.activity.includes(q.projectCode), "a line billing the approved count is not noted");
  } finally {
    await t.close();
  }
});

Deno.test("accounts approved: client figures and the dashboard count approved revenue as invoices bill it", async () => {
  const t = await testApp();
  try {
    const { client, supplier } = await dataset(t);
    const token = await t.tokenFor("ADMIN");

    // the clients grid: approved 142 + 85, actual revenue 142 x 2.90 + 85 x 3.00
    const clients = await t.api(Cl.listClients, { token, body: { search: client.clientName } });
    assertEquals(clients.status, 200, clients.text);
    const c = clients.json.result.data.find((r: { _id: string }) => r._id === client._id);
    assertEquals([c.completed, c.approved, c.actualRevenue, c.expectedRevenue], [250, 227, 666.8, 735]);

    // the suppliers grid: the supplier's 85 accepted at $1.20
    const suppliers = await t.api(Sup.listSuppliers, {
      token,
      body: { search: supplier.supplierName },
    });
    assertEquals(suppliers.status, 200, suppliers.text);
    const s = suppliers.json.result.data.find((r: { _id: string }) => r._id === supplier._id);
    assertEquals([s.approved, s.actualExpense], [85, 102]);

    // the dashboard: actual revenue and expense of the mapped work, and the reconciled projects' value
    const sums = await approvedSums(t.deps.db, { from: "0000", keyLength: 4 }, { clientId: client._id });
    const year = [...sums.values()][0];
    assertEquals([year.approved, year.actualRevenue, year.actualExpense], [85, 255, 102]);
    assertEquals(await closedProjectsValue(t.deps.db, "0000"), 666.8);
  } finally {
    await t.close();
  }
});
