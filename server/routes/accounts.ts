/** Accounts (part 2, 7 "Accounts"): handlers of the contracts in shared/api/accounts.ts. */
import { answer, type Api } from "../http/api.ts";
import * as C from "../../shared/api/accounts.ts";
import {
  createInvoice,
  enrichInvoices,
  getInvoice,
  invoiceListMap,
  invoiceProjects,
  invoicesListQuery,
  invoicesListSpec,
  nextInvoiceCode,
  projectInvoice,
  updateInvoice,
  uploadInvoiceRefs,
} from "../domain/accounts/invoices.ts";
import {
  accountProjectMap,
  accountProjectsQuery,
  archievedSpec,
  createManualProject,
  enrichAccountProjects,
  readyToInvoiceSpec,
} from "../domain/accounts/projects.ts";
import {
  createPurchaseOrder,
  financeMap,
  financesQuery,
  financesSpec,
  getPurchaseOrder,
  purchaseOrderMap,
  purchaseOrdersQuery,
  purchaseOrdersSpec,
  supplierProjectMap,
  supplierProjectsMeta,
  supplierProjectsQuery,
  supplierProjectsSpec,
  uploadPurchaseOrderRefs,
} from "../domain/accounts/purchase-orders.ts";
import { listIssuers, updateIssuer } from "../domain/accounts/issuers.ts";
import {
  invoicePdf,
  invoicePdfName,
  purchaseOrderPdf,
  purchaseOrderPdfName,
} from "../domain/accounts/pdf.ts";
import { pathOf } from "../../shared/api/contract.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";

const API_BASE = "/api/v1";

/** A PDF download answer, named for the browser's save dialog. */
function pdfResponse(bytes: Uint8Array, filename: string): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${filename}"; filename*=UTF-8''${
        encodeURIComponent(filename)
      }`,
      "cache-control": "no-store",
    },
  });
}

export function accountRoutes(api: Api) {
  // the project tabs
  api.list(C.listReadyToInvoice, ({ db }) => ({
    query: accountProjectsQuery(db, PROJECT_STATUS.READY_TO_INVOICE),
    spec: readyToInvoiceSpec,
    map: accountProjectMap,
    enrich: (rows) => enrichAccountProjects(db, rows),
    list: C.readyToInvoiceList,
  }));
  api.list(C.listArchieved, ({ db }) => ({
    query: accountProjectsQuery(db, PROJECT_STATUS.ARCHIEVED),
    spec: archievedSpec,
    map: accountProjectMap,
    enrich: (rows) => enrichAccountProjects(db, rows),
    list: C.archievedList,
  }));
  api.handle(C.invoiceProjectsCall, ({ db, body }) => invoiceProjects(db, body.clientId, body.invoiceId));
  api.handle(
    C.addManualProjectCall,
    async ({ deps, actor, body }) =>
      answer(await createManualProject(deps, actor(), body, deps.now), "Project added successfully"),
  );

  // invoices
  api.list(C.listInvoices, ({ db }) => ({
    query: invoicesListQuery(db),
    spec: invoicesListSpec,
    map: invoiceListMap,
    enrich: (rows) => enrichInvoices(db, rows),
    list: C.invoicesList,
  }));
  api.handle(C.nextInvoiceCodeCall, async ({ db }) => ({ invoiceCode: await nextInvoiceCode(db) }));
  api.handle(C.addInvoiceCall, async ({ deps, actor, body }) => {
    const invoice = await createInvoice(deps, actor(), body);
    const apiUrl = API_BASE + pathOf(C.downloadInvoiceCall, { id: invoice._id });
    return answer({ invoice, apiUrl }, `Invoice ${invoice.invoiceCode} generated successfully`);
  });
  api.handle(
    C.updateInvoiceCall,
    async ({ deps, actor, params, body }) =>
      answer(await updateInvoice(deps, actor(), params.id, body), "Invoice updated successfully"),
  );
  api.handle(C.getInvoiceCall, ({ db, params }) => getInvoice(db, params.id));
  api.handle(C.projectInvoiceCall, ({ db, params }) => projectInvoice(db, params.projectId));
  api.handle(C.downloadInvoiceCall, async ({ db, params }) => {
    const invoice = await getInvoice(db, params.id);
    return pdfResponse(await invoicePdf(invoice), invoicePdfName(invoice.invoiceCode));
  });
  api.handle(C.uploadInvoiceRefsCall, async ({ deps, db, actor, body }) => {
    const r = await uploadInvoiceRefs(db, actor(), body.data, deps.now, body.overwrite);
    return answer(r, `Reference numbers of ${r.updated} invoice${r.updated === 1 ? "" : "s"} uploaded`);
  });

  // suppliers: finances and purchase orders
  api.list(C.listSupplierFinances, ({ db }) => ({
    query: financesQuery(db),
    spec: financesSpec,
    map: financeMap,
    list: C.supplierFinancesList,
  }));
  // a supplier's reconciled maps: its page (named for the supplier) and Finances' Export supplier map
  api.list(C.listSupplierProjects, async ({ db, params }) => {
    const meta = await supplierProjectsMeta(db, params.supplierId);
    return {
      query: supplierProjectsQuery(db, params.supplierId),
      spec: supplierProjectsSpec,
      map: supplierProjectMap,
      list: C.supplierProjectsList,
      metadata: meta,
      filename: `supplier-map-${meta.supplierCode || meta.supplierName}`,
    };
  });
  api.list(C.listPurchaseOrders, ({ db }) => ({
    query: purchaseOrdersQuery(db),
    spec: purchaseOrdersSpec,
    map: purchaseOrderMap,
    list: C.purchaseOrdersList,
  }));
  api.handle(C.addPurchaseOrderCall, async ({ db, actor, body }) => {
    const purchaseOrder = await createPurchaseOrder(db, actor(), body.supplierId);
    const apiUrl = API_BASE + pathOf(C.downloadPurchaseOrderCall, { id: purchaseOrder._id });
    return answer({ purchaseOrder, apiUrl }, `Purchase order ${purchaseOrder.poCode} created successfully`);
  });
  api.handle(C.downloadPurchaseOrderCall, async ({ db, params }) => {
    const po = await getPurchaseOrder(db, params.id);
    return pdfResponse(await purchaseOrderPdf(po), purchaseOrderPdfName(po.poCode));
  });
  api.handle(C.uploadPurchaseOrderRefsCall, async ({ deps, db, actor, body }) => {
    const r = await uploadPurchaseOrderRefs(db, actor(), body.data, deps.now, body.overwrite);
    return answer(
      r,
      `Reference numbers of ${r.updated} purchase order${r.updated === 1 ? "" : "s"} uploaded`,
    );
  });

  // issuing companies
  api.handle(C.issuingCompaniesCall, ({ db }) => listIssuers(db));
  api.handle(
    C.updateIssuingCompanyCall,
    async ({ deps, db, actor, params, body }) =>
      answer(
        await updateIssuer(db, actor(), params.id, body, deps.now),
        "Issuing company updated successfully",
      ),
  );
}
