/** `invoice pdf <invoiceCode> --out file.pdf`: the invoice's PDF, made by the same domain functions as the API. */
import type { Command } from "commander";
import { getInvoiceByCode } from "../../server/domain/accounts/invoice-record.ts";
import { invoicePdf, invoicePdfName } from "../../server/domain/accounts/pdf.ts";
import { isNotFound } from "../../server/domain/errors.ts";
import { CliError, say, withDeps } from "../context.ts";

export function registerInvoiceCommands(program: Command) {
  const invoice = program.command("invoice").description("Invoices to clients");
  invoice.command("pdf")
    .description("Write an invoice's PDF (default file name Invoice#<code>.pdf)")
    .argument("<invoiceCode>", "the invoice number, e.g. INV10001")
    .option("--out <file>", "where to write the PDF")
    .action(async (code: string, opts: { out?: string }) => {
      const { bytes, name, total } = await withDeps(async (deps) => {
        try {
          const inv = await getInvoiceByCode(deps, code);
          return { bytes: await invoicePdf(inv), name: invoicePdfName(inv.invoiceCode), total: inv.total };
        } catch (e) {
          if (isNotFound(e)) throw new CliError(`no invoice has the code ${code}`);
          throw e;
        }
      });
      const out = opts.out?.trim() || name;
      try {
        await Deno.writeFile(out, bytes);
      } catch (e) {
        throw new CliError(`cannot write ${out}: ${e instanceof Error ? e.message.split("\n")[0] : e}`);
      }
      say(`Wrote ${name.replace(/\.pdf$/, "")} ($${total.toFixed(2)}) to ${out} (${bytes.length} bytes)`);
    });
}
