/**
 * Generate Invoice Manual (/admin/invoice/generate/manual, also /admin/invoice/add): a project
 * entered by hand for invoicing; after saving the app goes to /admin/invoice.
 */
import { useState } from "react";
import { useNavigate } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { api, ApiError } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Input } from "../../components/ui/input.tsx";
import { Label } from "../../components/ui/label.tsx";
import { Select } from "../../components/ui/select.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { useOptions } from "../../components/filters/useOptions.ts";
import { MSG } from "../../../../shared/messages.ts";
import { PROJECT_STATUS, PROJECT_STATUS_LIST } from "../../../../shared/status.ts";
import { addManualProjectCall } from "../../../../shared/api/accounts.ts";
import { CLIENTS } from "../../lib/lookups.ts";

const STATUSES = PROJECT_STATUS_LIST.filter((s) => s.value !== PROJECT_STATUS.INVOICED)
  .map((s) => ({ value: String(s.value), label: s.label }));

export default function ManualProjectPage() {
  const navigate = useNavigate();
  // the grids show what a save changed
  const qc = useQueryClient();
  const clients = useOptions(CLIENTS);
  const [form, setForm] = useState({
    clientId: "",
    projectCode: "",
    projectName: "",
    projectStatus: String(PROJECT_STATUS.READY_TO_INVOICE),
    poNumber: "",
    complete: "0",
    cpi: "0",
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));

  const submit = async () => {
    const local: Record<string, string> = {};
    if (!form.clientId) local.clientId = MSG.clientRequired;
    if (!form.projectCode.trim()) local.projectCode = MSG.projectCodeRequired;
    if (form.projectName.trim().length < 4) local.projectName = MSG.projectNameRequired;
    if (!form.projectStatus) local.projectStatus = MSG.projectStatusRequired;
    if (form.projectStatus === String(PROJECT_STATUS.CLOSED) && !form.poNumber.trim()) {
      local.poNumber = MSG.poNumberRequired;
    }
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const res = await api(addManualProjectCall, {
        body: { ...form, projectStatus: Number(form.projectStatus) },
      });
      notify.success(res.message);
      await qc.invalidateQueries({ queryKey: ["list"] });
      navigate("/admin/invoice");
    } catch (e) {
      if (e instanceof ApiError) setErrors(Object.fromEntries(e.errors.map((x) => [x.path, x.message])));
    } finally {
      setBusy(false);
    }
  };
  const err = (k: string) => (errors[k] ? <p className="text-sm text-destructive">{errors[k]}</p> : null);
  return (
    <>
      <PageHeader
        title="Generate Invoice Manual"
        description="A project entered by hand, to invoice from Ready To Invoice."
      />
      <Card className="max-w-xl">
        <CardContent className="flex flex-col gap-3 pt-6">
          <Label>Client</Label>
          <Select
            ariaLabel="Client"
            value={form.clientId}
            onValueChange={set("clientId")}
            options={clients.options}
          />
          {err("clientId")}
          <Label htmlFor="projectCode">Project code</Label>
          <Input
            id="projectCode"
            value={form.projectCode}
            onChange={(e) => set("projectCode")(e.target.value)}
          />
          {err("projectCode")}
          <Label htmlFor="projectName">Project name</Label>
          <Input
            id="projectName"
            value={form.projectName}
            onChange={(e) => set("projectName")(e.target.value)}
          />
          {err("projectName")}
          <Label>Project Status</Label>
          <Select
            ariaLabel="Project Status"
            value={form.projectStatus}
            onValueChange={set("projectStatus")}
            options={STATUSES}
          />
          {err("projectStatus")}
          <Label htmlFor="poNumber">PO Number</Label>
          <Input id="poNumber" value={form.poNumber} onChange={(e) => set("poNumber")(e.target.value)} />
          {err("poNumber")}
          <Label htmlFor="complete">Complete</Label>
          <Input
            id="complete"
            inputMode="numeric"
            value={form.complete}
            onChange={(e) => set("complete")(e.target.value)}
          />
          {err("complete")}
          <Label htmlFor="cpi">CPI</Label>
          <Input id="cpi" inputMode="decimal" value={form.cpi} onChange={(e) => set("cpi")(e.target.value)} />
          {err("cpi")}
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => navigate("/admin/invoice")}>Cancel</Button>
            <Button loading={busy} onClick={() => void submit()}>Submit</Button>
          </div>
        </CardContent>
      </Card>
    </>
  );
}
