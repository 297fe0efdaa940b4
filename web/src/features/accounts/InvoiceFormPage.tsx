/**
 * Generate Invoice (/admin/invoice/generate) and its edit (/admin/invoice/generate/:id/edit): the
 * client from a searchable dialog (name and e-mail), the issuing company its account marker picks,
 * the invoice code fetched from the server (disabled), lines whose total follows complete x CPI and
 * can be typed (a project's line starts from its approved count and warns when it bills another),
 * the grand total, net terms and due date. Submit needs a client and a line; after a
 * save the PDF is downloaded and the app goes to /admin/invoice/list.
 */
import { useEffect, useMemo, useState } from "react";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus, Trash2, UserRoundSearch } from "lucide-react";
import { api, ApiError, callKey } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Input } from "../../components/ui/input.tsx";
import { DateInput } from "../../components/filters/DateInput.tsx";
import { Label } from "../../components/ui/label.tsx";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Dialog, DialogContent, DialogHeader, DialogTitle } from "../../components/ui/dialog.tsx";
import { type ClientInvoiceOption, clientInvoiceOptionsCall } from "../../../../shared/api/clients.ts";
import {
  addInvoiceCall,
  getInvoiceCall,
  invoiceProjectsCall,
  issuingCompaniesCall,
  nextInvoiceCodeCall,
  updateInvoiceCall,
} from "../../../../shared/api/accounts.ts";
import { addDays, type InvoiceProjectOption, today, usd } from "./accounts.ts";
import { saveInvoicePdf } from "./files.ts";
import { approvalGap, ApprovalSummary, ApprovalWarning } from "./ApprovalWarning.tsx";
import { StaticTable, type TableLook } from "../../components/table/StaticTable.tsx";

type Line = {
  key: string;
  projectId: string | null;
  projectCode: string;
  projectName: string;
  poNumber: string;
  complete: string;
  cpi: string;
  total: string;
};
const num = (s: string) => (Number.isFinite(Number(s)) ? Number(s) : 0);
const money2 = (n: number) => (Math.round(n * 100) / 100).toFixed(2);
let seq = 0;
const lineOf = (p: InvoiceProjectOption): Line => ({
  key: `l${seq++}`,
  projectId: p._id,
  projectCode: p.projectCode,
  projectName: p.projectName,
  poNumber: p.poNumber,
  complete: String(p.complete),
  cpi: String(p.cpi),
  total: money2(p.total),
});

/** The invoice's lines being edited: plain rows of inputs under a muted header. */
const LINES_LOOK: TableLook = { table: "w-full text-sm", headRow: "text-left text-muted-foreground" };

export default function InvoiceFormPage() {
  const { id } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  // the grids show what a save changed
  const qc = useQueryClient();
  const editing = !!id;
  const [client, setClient] = useState<ClientInvoiceOption | null>(null);
  const [picking, setPicking] = useState(false);
  const [netTerms, setNetTerms] = useState("0");
  const [currentDate, setCurrentDate] = useState(today());
  const [dueDate, setDueDate] = useState(today());
  const [floor, setFloor] = useState(today());
  const [lines, setLines] = useState<Line[]>([]);
  const [invoiceStatus, setInvoiceStatus] = useState(1);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const existing = useQuery({
    queryKey: callKey(getInvoiceCall, id),
    queryFn: async () => (await api(getInvoiceCall, { params: { id: id! } })).result,
    enabled: editing,
  });
  const code = useQuery({
    queryKey: callKey(nextInvoiceCodeCall),
    queryFn: async () => (await api(nextInvoiceCodeCall)).result.invoiceCode,
    enabled: !editing && !!client,
  });
  const issuers = useQuery({
    queryKey: callKey(issuingCompaniesCall),
    queryFn: async () => (await api(issuingCompaniesCall)).result,
  });
  const projects = useQuery({
    queryKey: callKey(invoiceProjectsCall, client?._id, id),
    queryFn: async () =>
      (await api(invoiceProjectsCall, { body: { clientId: client!._id, invoiceId: id ?? null } })).result,
    enabled: !!client,
  });

  // an edit starts from the saved invoice
  useEffect(() => {
    const inv = existing.data;
    if (!inv) return;
    setClient({
      ...inv.client,
      label: inv.client.clientName,
      value: inv.client._id,
      countryId: { ...inv.client.countryId, code: "", flag: "" },
    });
    setNetTerms(String(inv.netTerms));
    setCurrentDate(inv.currentDate);
    setFloor(inv.currentDate);
    setDueDate(inv.dueDate);
    setInvoiceStatus(inv.invoiceStatus);
    setLines(inv.projects.map((l) => ({
      key: `l${seq++}`,
      projectId: l.projectId,
      projectCode: l.projectCode,
      projectName: l.projectName,
      poNumber: l.poNumber,
      complete: String(l.complete),
      cpi: String(l.cpi),
      total: money2(l.total),
    })));
  }, [existing.data]);

  // a project chosen on Ready To Invoice comes pre-selected
  const wantedClient = search.get("clientId");
  const wantedProject = search.get("projectId");
  useEffect(() => {
    if (editing || !wantedClient || client) return;
    void api(clientInvoiceOptionsCall, { query: {} }).then((r) => {
      const c = r.result.find((x) => x._id === wantedClient);
      if (c) choose(c);
    }).catch(() => {});
  }, [wantedClient]); // eslint-disable-line
  useEffect(() => {
    if (!wantedProject || !projects.data || lines.length) return;
    const p = projects.data.find((x) => x._id === wantedProject);
    if (p) setLines([lineOf(p)]);
  }, [projects.data]); // eslint-disable-line

  function choose(c: ClientInvoiceOption) {
    setClient(c);
    setPicking(false);
    if (!editing) {
      // net terms default to the client's net days, the due date to today plus them
      const n = c.netDays ?? 0;
      setNetTerms(String(n));
      setDueDate(addDays(currentDate, n));
      setLines([]);
    }
  }

  const issuer = useMemo(() => {
    const all = issuers.data ?? [];
    const marker = client?.wolfAccount?.trim().toLowerCase() === "wcanada" ? "wcanada" : "";
    return all.find((i) => i.accountMarker === marker) ?? all.find((i) => i.accountMarker === "");
  }, [issuers.data, client]);

  const grand = lines.reduce((s, l) => s + num(l.total), 0);
  /** A figure of a line, typed right-aligned; `recalc` recomputes the line's total. */
  const amountInput = (l: Line, field: "complete" | "cpi" | "total", label: string, recalc: boolean) => (
    <Input
      aria-label={label}
      className="text-right"
      value={l[field]}
      onChange={(e) => setLine(l.key, { [field]: e.target.value }, recalc)}
    />
  );
  const setLine = (key: string, patch: Partial<Line>, recalc: boolean) =>
    setLines((ls) =>
      ls.map((l) => {
        if (l.key !== key) return l;
        const next = { ...l, ...patch };
        return recalc ? { ...next, total: money2(num(next.complete) * num(next.cpi)) } : next;
      })
    );
  const unused = (projects.data ?? []).filter((p) => !lines.some((l) => l.projectId === p._id));
  const gaps = lines.map((l) => approvalGap(l.projectId, l.complete, projects.data));

  const submit = async () => {
    setBusy(true);
    setErrors({});
    const body = {
      clientId: client!._id,
      netTerms: num(netTerms),
      invoiceStatus,
      currentDate,
      dueDate,
      projects: lines.map((l) => ({
        projectId: l.projectId,
        projectCode: l.projectCode,
        projectName: l.projectName,
        poNumber: l.poNumber,
        complete: l.complete,
        cpi: l.cpi,
        total: l.total,
      })),
    };
    try {
      if (editing) {
        const res = await api(updateInvoiceCall, { params: { id: id! }, body });
        notify.success(res.message);
        await saveInvoicePdf(res.result._id, res.result.invoiceCode);
      } else {
        const res = await api(addInvoiceCall, { body });
        notify.success(res.message);
        await saveInvoicePdf(res.result.invoice._id, res.result.invoice.invoiceCode);
      }
      await qc.invalidateQueries({ queryKey: ["list"] });
      navigate("/admin/invoice/list");
    } catch (e) {
      if (e instanceof ApiError) setErrors(Object.fromEntries(e.errors.map((x) => [x.path, x.message])));
    } finally {
      setBusy(false);
    }
  };

  const ready = !!client && (editing ? !!existing.data : !!code.data);
  return (
    <>
      <PageHeader title={editing ? "Edit Invoice" : "Generate Invoice"} />
      <div className="grid gap-4 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>From</CardTitle>
          </CardHeader>
          <CardContent className="whitespace-pre-line text-sm" data-testid="issuer">
            {issuer ? `${issuer.companyName}\n${issuer.address}\n${issuer.email}` : "…"}
          </CardContent>
        </Card>
        <Card>
          <CardHeader className="flex flex-row items-center justify-between">
            <CardTitle>To</CardTitle>
            <Button variant="outline" onClick={() => setPicking(true)}>
              <UserRoundSearch /> {client ? "Update Client" : "Add Client"}
            </Button>
          </CardHeader>
          <CardContent className="text-sm" data-testid="bill-to">
            {client
              ? (
                <div className="flex flex-col">
                  <span className="font-medium">{client.clientName}</span>
                  <span>{[client.address1, client.address2, client.city].filter(Boolean).join(", ")}</span>
                  <span>{client.countryId?.name}</span>
                  <span>{client.clientPhoneNumber}</span>
                </div>
              )
              : (
                <span className="text-muted-foreground">
                  {errors.clientId ?? "Choose the client to bill."}
                </span>
              )}
          </CardContent>
        </Card>
      </div>
      <ClientPicker open={picking} onOpenChange={setPicking} onPick={choose} />
      {ready
        ? (
          <Card className="mt-4">
            <CardContent className="flex flex-col gap-4 pt-6">
              <div className="grid gap-3 sm:grid-cols-4">
                <Field label="Invoice code">
                  <Input
                    value={editing ? existing.data!.invoiceCode : code.data!}
                    disabled
                    aria-label="Invoice code"
                  />
                </Field>
                <Field label="Date" error={errors.currentDate}>
                  <DateInput
                    label="Date"
                    className="w-full"
                    min={floor}
                    value={currentDate}
                    onChange={(iso) => {
                      const d = !iso || iso < floor ? floor : iso;
                      setCurrentDate(d);
                      setDueDate(addDays(d, num(netTerms)));
                    }}
                  />
                </Field>
                <Field label="Net terms (days)" error={errors.netTerms}>
                  <Input
                    inputMode="numeric"
                    aria-label="Net terms"
                    value={netTerms}
                    onChange={(e) => {
                      setNetTerms(e.target.value.replace(/\D/g, ""));
                      setDueDate(addDays(currentDate, num(e.target.value.replace(/\D/g, ""))));
                    }}
                  />
                </Field>
                <Field label="Due date" error={errors.dueDate}>
                  <DateInput
                    label="Due date"
                    className="w-full"
                    min={addDays(currentDate, num(netTerms))}
                    value={dueDate}
                    onChange={setDueDate}
                  />
                </Field>
              </div>
              <StaticTable
                look={LINES_LOOK}
                rows={lines}
                rowKey={(l) => l.key}
                rowTestId="invoice-line"
                columns={[
                  {
                    header: "#",
                    cell: (_l, i) => i + 1,
                  },
                  {
                    header: "Project",
                    cell: (l, i) => (
                      <>
                        {l.projectId ? `${l.projectCode} ${l.projectName}` : (
                          <div className="flex gap-1">
                            <Input
                              aria-label="Project code"
                              placeholder="Code"
                              value={l.projectCode}
                              onChange={(e) => setLine(l.key, { projectCode: e.target.value }, false)}
                            />
                            <Input
                              aria-label="Project name"
                              placeholder="Name"
                              value={l.projectName}
                              onChange={(e) => setLine(l.key, { projectName: e.target.value }, false)}
                            />
                          </div>
                        )}
                        {errors[`projects.${i}.projectId`]
                          ? <p className="text-destructive">{errors[`projects.${i}.projectId`]}</p>
                          : null}
                      </>
                    ),
                  },
                  {
                    header: "PO number",
                    cell: (l) => (
                      <Input
                        aria-label="PO number"
                        value={l.poNumber}
                        onChange={(e) => setLine(l.key, { poNumber: e.target.value }, false)}
                      />
                    ),
                  },
                  {
                    header: "Complete",
                    headerClassName: "text-right",
                    cell: (l, i) => (
                      <>
                        {amountInput(l, "complete", "Complete", true)}
                        <ApprovalWarning gap={gaps[i]} />
                      </>
                    ),
                  },
                  {
                    header: "CPI",
                    headerClassName: "text-right",
                    cell: (l) => amountInput(l, "cpi", "CPI", true),
                  },
                  {
                    header: "Total",
                    headerClassName: "text-right",
                    cell: (l) => amountInput(l, "total", "Total", false),
                  },
                  {
                    header: null,
                    cell: (l) => (
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label="Remove line"
                        onClick={() => setLines((ls) => ls.filter((x) => x.key !== l.key))}
                      >
                        <Trash2 />
                      </Button>
                    ),
                  },
                ]}
              />
              <div className="flex flex-wrap items-center gap-2">
                {unused.map((p) => (
                  <Button
                    key={p._id}
                    variant="outline"
                    size="sm"
                    onClick={() => setLines((ls) => [...ls, lineOf(p)])}
                  >
                    <Plus /> {p.projectCode}
                  </Button>
                ))}
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() =>
                    setLines((ls) => [...ls, {
                      key: `l${seq++}`,
                      projectId: null,
                      projectCode: "",
                      projectName: "",
                      poNumber: "",
                      complete: "0",
                      cpi: "0",
                      total: "0.00",
                    }])}
                >
                  <Plus /> Line by hand
                </Button>
                <span className="ml-auto text-lg font-semibold" data-testid="grand-total">
                  Grand total: {usd(grand)}
                </span>
              </div>
              {errors.projects ? <p className="text-destructive">{errors.projects}</p> : null}
              <div className="flex items-center justify-end gap-2">
                <ApprovalSummary gaps={gaps} />
                <Button variant="outline" onClick={() => navigate("/admin/invoice/list")}>Cancel</Button>
                <Button disabled={!client || lines.length === 0} loading={busy} onClick={() => void submit()}>
                  {editing ? "Update" : "Submit"}
                </Button>
              </div>
            </CardContent>
          </Card>
        )
        : null}
    </>
  );
}

function Field({ label, error, children }: { label: string; error?: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <Label>{label}</Label>
      {children}
      {error ? <p className="text-sm text-destructive">{error}</p> : null}
    </div>
  );
}

/** The searchable client list (client name and e-mail). */
function ClientPicker(
  { open, onOpenChange, onPick }: {
    open: boolean;
    onOpenChange: (o: boolean) => void;
    onPick: (c: ClientInvoiceOption) => void;
  },
) {
  const [term, setTerm] = useState("");
  const clients = useQuery({
    queryKey: callKey(clientInvoiceOptionsCall, term),
    queryFn: async () => (await api(clientInvoiceOptionsCall, { query: { search: term } })).result,
    enabled: open,
  });
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Clients</DialogTitle>
        </DialogHeader>
        <Input
          autoFocus
          placeholder="Search clients"
          aria-label="Search clients"
          value={term}
          onChange={(e) => setTerm(e.target.value)}
        />
        <ul className="max-h-80 overflow-y-auto">
          {(clients.data ?? []).map((c) => (
            <li key={c._id}>
              <button
                type="button"
                className="flex w-full flex-col rounded-md px-2 py-1.5 text-left hover:bg-accent"
                onClick={() => onPick(c)}
              >
                <span className="font-medium">{c.clientName}</span>
                <span className="text-xs text-muted-foreground">{c.clientEmail}</span>
              </button>
            </li>
          ))}
        </ul>
      </DialogContent>
    </Dialog>
  );
}
