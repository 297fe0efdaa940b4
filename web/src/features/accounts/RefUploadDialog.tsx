/**
 * The Upload Ref. No. dialog of the Invoices and Purchase Order tabs (part 2, 2): a sample CSV, a
 * file picker, and Upload, disabled until the file yields a row. Parsing: no header row, dynamic
 * typing, blank lines skipped. After success the dialog closes and clears its rows. A file that
 * would replace the reference of a record already Paid is refused by line; the dialog lists those
 * lines and asks before uploading again with overwrite.
 */
import { useState } from "react";
import Papa from "papaparse";
import { TriangleAlert, Upload } from "lucide-react";
import { api, ApiError } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { Button } from "../../components/ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import { uploadInvoiceRefsCall, uploadPurchaseOrderRefsCall } from "../../../../shared/api/accounts.ts";

export const SAMPLE_REF_CSV = "/assets/csv/sample_ref.csv";

export function RefUploadDialog(
  { kind, onDone }: { kind: "invoice" | "purchaseOrder"; onDone: () => void },
) {
  const [open, setOpen] = useState(false);
  const [rows, setRows] = useState<(string | number | boolean | null)[][]>([]);
  const [busy, setBusy] = useState(false);
  const [fileName, setFileName] = useState("");
  /** The lines refused because their record is already Paid: shown, and overwritten only when asked. */
  const [paidLines, setPaidLines] = useState<string[]>([]);
  const what = kind === "invoice" ? "invoices" : "purchase orders";

  const read = (file: File | undefined) => {
    setRows([]);
    setPaidLines([]);
    setFileName(file?.name ?? "");
    if (!file) return;
    Papa.parse<(string | number | boolean | null)[]>(file, {
      header: false,
      dynamicTyping: true,
      skipEmptyLines: "greedy",
      complete: (r) => setRows(r.data.filter((row) => Array.isArray(row) && row.length > 0)),
    });
  };

  const upload = async (overwrite: boolean) => {
    setBusy(true);
    try {
      const call = kind === "invoice" ? uploadInvoiceRefsCall : uploadPurchaseOrderRefsCall;
      // a refusal of paid records is shown in the dialog, not as a notice
      const res = await api(call, { body: { data: rows, overwrite } }, {
        quiet: (e) => e.status === 409 && e.errors.length > 0,
      });
      notify.success(res.message);
      setRows([]);
      setFileName("");
      setPaidLines([]);
      setOpen(false);
      onDone();
    } catch (e) {
      /* otherwise the notice says why */
      if (e instanceof ApiError && e.status === 409 && e.errors.length) {
        setPaidLines(e.errors.map((x) => x.message));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <Upload /> Upload Ref. No.
      </Button>
      <Dialog
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          // a refusal belongs to the upload it answered
          if (!o) setPaidLines([]);
        }}
      >
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Upload Ref. No.</DialogTitle>
            <DialogDescription>
              One {kind === "invoice" ? "invoice" : "purchase order"}{" "}
              a line, no header: number, reference number, received date (dd/mm/yyyy, today when left out),
              comment. The {kind === "invoice" ? "invoices" : "purchase orders"} are marked Paid.{" "}
              <a className="text-primary underline" href={SAMPLE_REF_CSV} download>Sample CSV</a>
            </DialogDescription>
          </DialogHeader>
          <input
            type="file"
            accept=".csv,text/csv"
            aria-label="CSV file"
            onChange={(e) => read(e.target.files?.[0])}
          />
          <p className="text-sm text-muted-foreground">
            {fileName
              ? `${rows.length} row${rows.length === 1 ? "" : "s"} read from ${fileName}`
              : "No file chosen"}
          </p>
          {paidLines.length
            ? (
              <div
                role="alert"
                data-testid="paid-refused"
                className="flex flex-col gap-1 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
              >
                <p className="flex items-center gap-1.5 font-medium">
                  <TriangleAlert className="size-4" />
                  {paidLines.length === 1 ? "1 line names" : `${paidLines.length} lines name`} {what}{" "}
                  already Paid; nothing was uploaded.
                </p>
                <ul className="max-h-32 list-disc overflow-y-auto pl-5">
                  {paidLines.slice(0, 50).map((l) => <li key={l}>{l}</li>)}
                </ul>
                {paidLines.length > 50 ? <p>and {paidLines.length - 50} more</p> : null}
                <p>
                  Overwrite replaces their reference and received date; the system log keeps the old values.
                </p>
              </div>
            )
            : null}
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>Cancel</Button>
            {paidLines.length
              ? (
                <Button variant="destructive" loading={busy} onClick={() => void upload(true)}>
                  Overwrite and upload
                </Button>
              )
              : (
                <Button disabled={rows.length === 0} loading={busy} onClick={() => void upload(false)}>
                  Upload
                </Button>
              )}
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
