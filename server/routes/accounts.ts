/** Accounts (part 2, 7 "Accounts"): handlers of the contracts in shared/api/accounts.ts. */
import { answer, type Api } from "../http/api.ts";
import * as C from "../../shared/api/accounts.ts";
import { createInvoice, updateInvoice, uploadInvoiceRefs } from "../domain/accounts/invoices.ts";
import { getInvoice, nextInvoiceCode, projectInvoice } from "../domain/accounts/invoice-record.ts";
import {
  enrichInvoices,
  invoiceListMap,
  invoicesListQuery,
  invoicesListSpec,
} from "../domain/accounts/invoices-list.ts";
import { invoiceProjects } from "../domain/accounts/invoice-projects.ts";
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
  getPurchaseOrder,
  purchaseOrderMap,
  purchaseOrdersQuery,
  purchaseOrdersSpec,
  uploadPurchaseOrderRefs,
} from "../domain/accounts/purchase-orders.ts";
import {
  financeMap,
  financesQuery,
  financesSpec,
  supplierProjectMap,
  supplierProjectsMeta,
  supplierProjectsQuery,
  supplierProjectsSpec,
} from "../domain/accounts/finances.ts";
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
  api.handle(C.invoiceProjectsCall, ({ ctx, body }) => invoiceProjects(ctx, body));
  api.handle(
    C.addManualProjectCall,
    async ({ ctx, body }) => answer(await createManualProject(ctx, body), "Project added successfully"),
  );

  // invoices
  api.list(C.listInvoices, ({ db }) => ({
    query: invoicesListQuery(db),
    spec: invoicesListSpec,
    map: invoiceListMap,
    enrich: (rows) => enrichInvoices(db, rows),
    list: C.invoicesList,
  }));
  api.handle(C.nextInvoiceCodeCall, async ({ ctx }) => ({ invoiceCode: await nextInvoiceCode(ctx) }));
  api.handle(C.addInvoiceCall, async ({ ctx, body }) => {
    const invoice = await createInvoice(ctx, body);
    const apiUrl = API_BASE + pathOf(C.downloadInvoiceCall, { id: invoice._id });
    return answer({ invoice, apiUrl }, `Invoice ${invoice.invoiceCode} generated successfully`);
  });
  api.handle(
    C.updateInvoiceCall,
    async ({ ctx, params, body }) =>
      answer(await updateInvoice(ctx, { ...body, id: params.id }), "Invoice updated successfully"),
  );
  api.handle(C.getInvoiceCall, ({ ctx, params }) => getInvoice(ctx, params.id));
  api.handle(C.projectInvoiceCall, ({ ctx, params }) => projectInvoice(ctx, params.projectId));
  api.handle(C.downloadInvoiceCall, async ({ ctx, params }) => {
    const invoice = await getInvoice(ctx, params.id);
    return pdfResponse(await invoicePdf(invoice), invoicePdfName(invoice.invoiceCode));
  });
  api.handle(C.uploadInvoiceRefsCall, async ({ ctx, body }) => {
    const r = await uploadInvoiceRefs(ctx, body);
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
  api.handle(C.addPurchaseOrderCall, async ({ ctx, body }) => {
    const purchaseOrder = await createPurchaseOrder(ctx, body);
    const apiUrl = API_BASE + pathOf(C.downloadPurchaseOrderCall, { id: purchaseOrder._id });
    return answer({ purchaseOrder, apiUrl }, `Purchase order ${purchaseOrder.poCode} created successfully`);
  });
  api.handle(C.downloadPurchaseOrderCall, async ({ ctx, params }) => {
    const po = await getPurchaseOrder(ctx, params.id);
    return pdfResponse(await purchaseOrderPdf(po), purchaseOrderPdfName(po.poCode));
  });
  api.handle(C.uploadPurchaseOrderRefsCall, async ({ ctx, body }) => {
    const r = await uploadPurchaseOrderRefs(ctx, body);
    return answer(
      r,
      `Reference numbers of ${r.updated} purchase order${r.updated === 1 ? "" : "s"} uploaded`,
    );
  });

  // issuing companies
  api.handle(C.issuingCompaniesCall, ({ ctx }) => listIssuers(ctx));
  api.handle(
    C.updateIssuingCompanyCall,
    async ({ ctx, params, body }) =>
      answer(await updateIssuer(ctx, { ...body, id: params.id }), "Issuing company updated successfully"),
  );
}
