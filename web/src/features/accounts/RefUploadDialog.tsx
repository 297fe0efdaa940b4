/**
 * The Upload Ref. No. dialog of the Invoices and Purchase Order tabs (part 2, 2): a sample CSV, a
 * file picker, and Upload, disabled until the file yields a row. Parsing: no header row, dynamic
 * typing, blank lines skipped. After success the dialog closes and clears its rows.
 */
import { useState } from "react";
import Papa from "papaparse";
import { Upload } from "lucide-react";
import { api } from "../../lib/api.ts";
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

  const read = (file: File | undefined) => {
    setRows([]);
    setFileName(file?.name ?? "");
    if (!file) return;
    Papa.parse<(string | number | boolean | null)[]>(file, {
      header: false,
      dynamicTyping: true,
      skipEmptyLines: "greedy",
      complete: (r) => setRows(r.data.filter((row) => Array.isArray(row) && row.length > 0)),
    });
  };

  const upload = async () => {
    setBusy(true);
    try {
      const call = kind === "invoice" ? uploadInvoiceRefsCall : uploadPurchaseOrderRefsCall;
      const res = await api(call, { body: { data: rows } });
      notify.success(res.message);
      setRows([]);
      setFileName("");
      setOpen(false);
      onDone();
    } catch {
      /* the notice says why */
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <Upload /> Upload Ref. No.
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
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
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>Cancel</Button>
            <Button disabled={rows.length === 0} loading={busy} onClick={() => void upload()}>Upload</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
