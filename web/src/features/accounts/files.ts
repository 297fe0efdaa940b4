/** Saving the invoice and purchase order PDFs (`Invoice#{code}.pdf`, `PO#{code}.pdf`). */
import { download } from "../../lib/api.ts";
import { saveBlob } from "../../lib/download.ts";
import { downloadInvoiceCall, downloadPurchaseOrderCall } from "../../../../shared/api/accounts.ts";

export async function saveInvoicePdf(id: string, code: string) {
  const { blob, filename } = await download(downloadInvoiceCall, { params: { id } });
  saveBlob(blob, filename ?? `Invoice#${code}.pdf`);
}

export async function savePurchaseOrderPdf(id: string, code: string) {
  const { blob, filename } = await download(downloadPurchaseOrderCall, { params: { id } });
  saveBlob(blob, filename ?? `PO#${code}.pdf`);
}
