/** /admin/invoice/status/:invoiceid/edit: Edit Invoice (Reference Number, Received Date, Comment, status). */
import { useEffect, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ApiError, callKey } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Input, Textarea } from "../../components/ui/input.tsx";
import { DateInput } from "../../components/filters/DateInput.tsx";
import { Label } from "../../components/ui/label.tsx";
import { Select } from "../../components/ui/select.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { MSG } from "../../../../shared/messages.ts";
import { getInvoiceCall, updateInvoiceCall } from "../../../../shared/api/accounts.ts";
import { INVOICE_STATUS_OPTIONS } from "./accounts.ts";

export default function InvoiceStatusPage() {
  const { invoiceid = "" } = useParams();
  const navigate = useNavigate();
  // the grids show what a save changed
  const qc = useQueryClient();
  const inv = useQuery({
    queryKey: callKey(getInvoiceCall, invoiceid),
    queryFn: async () => (await api(getInvoiceCall, { params: { id: invoiceid } })).result,
  });
  const [referenceNo, setReferenceNo] = useState("");
  const [recievedDate, setRecievedDate] = useState("");
  const [comment, setComment] = useState("");
  const [status, setStatus] = useState("1");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!inv.data) return;
    setReferenceNo(inv.data.referenceNo);
    setRecievedDate(inv.data.recievedDate ?? "");
    setComment(inv.data.comment);
    setStatus(String(inv.data.invoiceStatus));
  }, [inv.data]);

  const submit = async () => {
    const local: Record<string, string> = {};
    if (!referenceNo.trim()) local.referenceNo = MSG.referenceRequired;
    if (!recievedDate) local.recievedDate = MSG.receivedDateRequired;
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const res = await api(updateInvoiceCall, {
        params: { id: invoiceid },
        body: { referenceNo, recievedDate, comment, invoiceStatus: Number(status) },
      });
      notify.success(res.message);
      await qc.invalidateQueries({ queryKey: ["list"] });
      navigate("/admin/invoice/list");
    } catch (e) {
      if (e instanceof ApiError) setErrors(Object.fromEntries(e.errors.map((x) => [x.path, x.message])));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <PageHeader
        title="Edit Invoice"
        description={inv.data ? `${inv.data.invoiceCode} · ${inv.data.clientName}` : undefined}
      />
      <Card className="max-w-xl">
        <CardContent className="flex flex-col gap-3 pt-6">
          <Label htmlFor="referenceNo">Reference Number</Label>
          <Input id="referenceNo" value={referenceNo} onChange={(e) => setReferenceNo(e.target.value)} />
          {errors.referenceNo ? <p className="text-sm text-destructive">{errors.referenceNo}</p> : null}
          <Label htmlFor="recievedDate">Received Date</Label>
          <DateInput
            id="recievedDate"
            label="Received Date"
            className="w-full"
            value={recievedDate}
            onChange={setRecievedDate}
          />
          {errors.recievedDate ? <p className="text-sm text-destructive">{errors.recievedDate}</p> : null}
          <Label htmlFor="comment">Comment</Label>
          <Textarea id="comment" value={comment} onChange={(e) => setComment(e.target.value)} />
          <Label>Status</Label>
          <Select
            ariaLabel="Status"
            value={status}
            onValueChange={setStatus}
            options={INVOICE_STATUS_OPTIONS}
          />
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => navigate("/admin/invoice/list")}>Cancel</Button>
            <Button loading={busy} onClick={() => void submit()}>Submit</Button>
          </div>
        </CardContent>
      </Card>
    </>
  );
}
