/**
 * /admin/invoice/view/:invoiceid: the A4 preview (issuer, invoice code, date, due date, net terms,
 * bill-to, lines with PO number and project, grand total, service description, US and international
 * bank details) with Edit and Download.
 */
import { useNavigate, useParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { Download, Pencil } from "lucide-react";
import { api, callKey } from "../../lib/api.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Button } from "../../components/ui/button.tsx";
import { getInvoiceCall } from "../../../../shared/api/accounts.ts";
import { dmy, usd } from "./accounts.ts";
import { amountDue, parseTaxLines, poLabel, taxAmounts } from "../../../../shared/tax.ts";
import { saveInvoicePdf } from "./files.ts";
import { StaticTable, type TableLook } from "../../components/table/StaticTable.tsx";

/** The invoice's lines as printed: a rule under the header and under each line. */
const LINES_LOOK: TableLook = { table: "w-full", header: "border-b text-left", row: "border-b" };

export default function InvoiceViewPage() {
  const { invoiceid = "" } = useParams();
  const navigate = useNavigate();
  const q = useQuery({
    queryKey: callKey(getInvoiceCall, invoiceid),
    queryFn: async () => (await api(getInvoiceCall, { params: { id: invoiceid } })).result,
  });
  const inv = q.data;
  return (
    <>
      <PageHeader
        title="Invoice"
        actions={inv
          ? (
            <>
              <Button variant="outline" onClick={() => navigate(`/admin/invoice/generate/${inv._id}/edit`)}>
                <Pencil /> Edit
              </Button>
              <Button onClick={() => void saveInvoicePdf(inv._id, inv.invoiceCode)}>
                <Download /> Download
              </Button>
            </>
          )
          : null}
      />
      {inv
        ? (
          <article
            aria-label="Invoice preview"
            className="mx-auto flex aspect-[210/297] w-full max-w-[210mm] flex-col gap-5 rounded-md border bg-white p-10 text-sm text-slate-900 shadow-sm"
          >
            <header className="flex justify-between gap-6">
              <div className="whitespace-pre-line">
                <div className="text-lg font-semibold">{inv.issuer.companyName}</div>
                <div className="text-slate-600">
                  {[inv.issuer.address, inv.issuer.email, inv.issuer.phone, inv.issuer.taxNumber].filter(
                    Boolean,
                  ).join("\n")}
                </div>
              </div>
              <dl className="grid grid-cols-[auto_auto] gap-x-3 text-right">
                <dt className="col-span-2 text-2xl font-bold">INVOICE</dt>
                <dt>Invoice #</dt>
                <dd className="font-medium">{inv.invoiceCode}</dd>
                <dt>Date</dt>
                <dd>{dmy(inv.currentDate)}</dd>
                <dt>Due date</dt>
                <dd>{dmy(inv.dueDate)}</dd>
                <dt>Net terms</dt>
                <dd>{inv.netTerms} days</dd>
              </dl>
            </header>
            <section>
              <h2 className="font-semibold">Bill to</h2>
              <div className="whitespace-pre-line">
                {[
                  inv.client.company || inv.client.clientName,
                  inv.client.address1,
                  inv.client.address2,
                  [inv.client.city, inv.client.state, inv.client.zipCode].filter(Boolean).join(", "),
                  inv.client.countryId.name,
                  inv.client.taxId ? `Tax ID: ${inv.client.taxId}` : "",
                ].filter(Boolean).join("\n")}
              </div>
            </section>
            <StaticTable
              look={LINES_LOOK}
              rows={inv.projects}
              rowKey={(l) => l._id}
              footer={<InvoiceTotals subtotal={inv.total} taxLines={inv.issuer.taxLines} />}
              columns={[
                { header: "S.No.", cell: (_l, i) => i + 1 },
                {
                  header: "PO number / Project",
                  cell: (l) => (
                    <>
                      {l.poNumber ? `${poLabel(l.poNumber)} - ` : ""}
                      {l.projectCode} {l.projectName}
                    </>
                  ),
                },
                { header: "Amount due (USD)", cell: (l) => usd(l.total), align: "right" },
              ]}
            />
            <section>
              <h2 className="font-semibold">Service description</h2>
              <p>{inv.issuer.serviceDescription}</p>
            </section>
            <section className="grid grid-cols-2 gap-6 text-xs">
              <div className="whitespace-pre-line">
                <h2 className="text-sm font-semibold">Beneficiary bank details (US)</h2>
                {inv.issuer.bankUs}
              </div>
              <div className="whitespace-pre-line">
                <h2 className="text-sm font-semibold">Beneficiary bank details (International)</h2>
                {inv.issuer.bankInternational}
              </div>
            </section>
          </article>
        )
        : null}
    </>
  );
}

/** Grand total, or with the issuer's tax lines: subtotal, each tax and the total due (as the PDF). */
function InvoiceTotals({ subtotal, taxLines }: { subtotal: number; taxLines: string }) {
  const lines = parseTaxLines(taxLines);
  const taxes = taxAmounts(subtotal, lines);
  const row = (label: string, value: string, strong = false, key = label) => (
    <tr key={key}>
      <td colSpan={2} className={`pt-2 text-right ${strong ? "font-semibold" : ""}`}>{label}</td>
      <td className={`pt-2 text-right ${strong ? "font-semibold" : ""}`}>{value}</td>
    </tr>
  );
  if (!lines.length) return <tfoot>{row("Grand total", usd(subtotal), true)}</tfoot>;
  return (
    <tfoot>
      {row("Subtotal", usd(subtotal))}
      {lines.map((l, i) =>
        l.rate === null
          ? row(l.label, "", false, `n${i}`)
          : row(`${l.label} (${l.rate}%)`, usd(taxAmounts(subtotal, [l])[0].amount), false, `t${i}`)
      )}
      {row("Total due", usd(amountDue(subtotal, taxes)), true)}
    </tfoot>
  );
}
