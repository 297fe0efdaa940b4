/**
 * /supplier/inventory: the projects open to the supplier that it has not started, and the start
 * dialog with its five redirect links (the staff's supplier map rules and messages). Once started,
 * the project is among the supplier's mapped projects with its entry link.
 */
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { Play } from "lucide-react";
import { useQueryClient } from "@tanstack/react-query";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn } from "../../components/data-grid/types.ts";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { SubmitButton, TextField } from "../../components/form/fields.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import { api } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { formatCount, formatMoney } from "../../lib/format.ts";
import { countColumn, moneyColumn } from "../../components/data-grid/columns.tsx";
import { InventoryStart, startInventoryProjectCall } from "../../../../shared/api/portal.ts";
import {
  inventoryDecl,
  type InventoryProject,
  type PortalProject,
  type SupplierRedirects,
} from "./portal.ts";
import { EntryLink, Figure, ResponsiveList, SortSelect } from "./parts.tsx";
import { dashboardKey } from "./SupplierDashboard.tsx";

const SORTS = [
  { value: "createdAt:desc", label: "Newest first" },
  { value: "projectCode:asc", label: "Project code" },
  { value: "projectName:asc", label: "Project name" },
  { value: "averageLOI:asc", label: "Shortest LOI" },
  { value: "ir:desc", label: "Highest IR" },
];

const REDIRECTS: { name: keyof SupplierRedirects; label: string; example: string }[] = [
  { name: "redirectComplete", label: "Complete", example: "https://panel.example/complete?sid=[sid]" },
  { name: "redirectTerminate", label: "Terminate", example: "https://panel.example/terminate?sid=[sid]" },
  { name: "redirectQuotaFull", label: "Over Quota", example: "https://panel.example/quotafull?sid=[sid]" },
  { name: "redirectQualityTerm", label: "Quality Term", example: "https://panel.example/quality?sid=[sid]" },
  { name: "redirectSurveyClose", label: "Survey Close", example: "https://panel.example/closed?sid=[sid]" },
];
const NO_LINKS: SupplierRedirects = {
  redirectComplete: "",
  redirectTerminate: "",
  redirectQuotaFull: "",
  redirectQualityTerm: "",
  redirectSurveyClose: "",
};

export default function InventoryPage() {
  const list = useList<InventoryProject>(inventoryDecl);
  const [starting, setStarting] = useState<InventoryProject | null>(null);
  const saved = (list.metadata?.redirects as SupplierRedirects | undefined) ?? NO_LINKS;

  const columns = useMemo<GridColumn<InventoryProject>[]>(() => [
    {
      id: "project",
      header: "Project",
      className: "min-w-44",
      cell: (p) => (
        <div className="flex flex-col">
          <span className="font-medium">{p.projectCode}</span>
          <span className="text-xs text-muted-foreground">{p.projectName}</span>
        </div>
      ),
    },
    { id: "country", header: "Country", cell: (p) => p.countryName || "–" },
    countColumn<InventoryProject>("averageLOI", "LOI (min)", (p) => p.averageLOI),
    countColumn<InventoryProject>("ir", "IR (%)", (p) => p.ir),
    countColumn<InventoryProject>("remaining", "Completes wanted", (p) => p.remaining),
    moneyColumn<InventoryProject>("supplierCPI", "CPI", (p) => p.supplierCPI),
    {
      id: "prescreen",
      header: "Pre-screen",
      cell: (p) => (p.isPreScreen ? <Badge tone="violet">Pre-screen</Badge> : "–"),
    },
    {
      id: "start",
      header: <span className="sr-only">Start</span>,
      cell: (p) => (
        <Button size="sm" onClick={() => setStarting(p)} aria-label={`Start ${p.projectCode}`}>
          <Play /> Start
        </Button>
      ),
    },
  ], []);

  const card = (p: InventoryProject) => (
    <div className="flex flex-col gap-3">
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium">{p.projectCode}</p>
          <p className="truncate text-sm text-muted-foreground">{p.projectName}</p>
        </div>
        {p.isPreScreen ? <Badge tone="violet">Pre-screen</Badge> : null}
      </div>
      <dl className="grid grid-cols-3 gap-x-3 gap-y-2 text-sm">
        <Figure label="CPI" value={formatMoney(p.supplierCPI)} />
        <Figure label="LOI (min)" value={formatCount(p.averageLOI)} />
        <Figure label="IR" value={`${p.ir}%`} />
        <Figure label="Wanted" value={formatCount(p.remaining)} />
        <Figure label="Country" value={p.countryName || "–"} className="col-span-2" />
      </dl>
      <Button onClick={() => setStarting(p)} aria-label={`Start ${p.projectCode}`}>
        <Play /> Start
      </Button>
    </div>
  );

  return (
    <>
      <PageHeader
        title="Projects"
        description="Inventory: projects open to you. Start one with your five redirect links, then send respondents to its entry link."
      />
      <FilterToolbar list={list} actions={<SortSelect list={list} choices={SORTS} />} />
      <ResponsiveList
        list={list}
        columns={columns}
        card={card}
        caption="Projects open to you"
        emptyText="No projects open to you right now"
      />
      <StartDialog project={starting} saved={saved} onClose={() => setStarting(null)} />
    </>
  );
}

function StartDialog(
  { project, saved, onClose }: {
    project: InventoryProject | null;
    saved: SupplierRedirects;
    onClose: () => void;
  },
) {
  const [started, setStarted] = useState<PortalProject | null>(null);
  const open = !!project;
  const close = () => {
    setStarted(null);
    onClose();
  };
  return (
    <Dialog open={open} onOpenChange={(o) => !o && close()}>
      <DialogContent
        className="max-h-[90svh] max-w-2xl overflow-y-auto"
        onInteractOutside={(e) => e.preventDefault()}
      >
        {project && started ? <Started project={started} onClose={close} /> : project
          ? (
            <StartForm
              key={project._id}
              project={project}
              saved={saved}
              onStarted={setStarted}
              onCancel={close}
            />
          )
          : null}
      </DialogContent>
    </Dialog>
  );
}

function StartForm({ project, saved, onStarted, onCancel }: {
  project: InventoryProject;
  saved: SupplierRedirects;
  onStarted: (p: PortalProject) => void;
  onCancel: () => void;
}) {
  const qc = useQueryClient();
  const form = useSchemaForm(InventoryStart, { ...saved, isUrlUpdated: false });
  async function submit(values: SupplierRedirects) {
    // the links as typed become the map's; untouched, the supplier's saved ones are used
    const isUrlUpdated = REDIRECTS.some((r) => values[r.name] !== saved[r.name]);
    const res = await api(startInventoryProjectCall, {
      params: { id: project._id },
      body: { ...pick(values), isUrlUpdated },
    });
    notify.success(res.message);
    // the inventory loses the project, the mapped projects gain it
    void qc.invalidateQueries({ queryKey: ["list"] });
    void qc.invalidateQueries({ queryKey: dashboardKey });
    onStarted(res.result);
  }
  return (
    <Form form={form} onSubmit={submit} className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Start {project.projectCode}</DialogTitle>
        <DialogDescription>
          {project.projectName}: {formatMoney(project.supplierCPI)}{" "}
          per complete. Where should respondents go when they finish? Each link must carry{" "}
          <code className="rounded bg-muted px-1">[sid]</code>.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-4 sm:grid-cols-2">
        {REDIRECTS.map((r) => (
          <TextField
            key={r.name}
            name={r.name}
            label={r.label}
            type="url"
            placeholder={r.example}
            autoComplete="off"
            spellCheck={false}
          />
        ))}
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>Cancel</Button>
        <SubmitButton>Start project</SubmitButton>
      </DialogFooter>
    </Form>
  );
}

const pick = (v: SupplierRedirects): SupplierRedirects => ({
  redirectComplete: v.redirectComplete,
  redirectTerminate: v.redirectTerminate,
  redirectQuotaFull: v.redirectQuotaFull,
  redirectQualityTerm: v.redirectQualityTerm,
  redirectSurveyClose: v.redirectSurveyClose,
});

function Started({ project, onClose }: { project: PortalProject; onClose: () => void }) {
  return (
    <div className="flex flex-col gap-4" data-testid="started">
      <DialogHeader>
        <DialogTitle>{project.projectCode} started</DialogTitle>
        <DialogDescription>
          Send respondents to this entry link, with your respondent id in place of [sid].
        </DialogDescription>
      </DialogHeader>
      <EntryLink url={project.redirectUrl} label={`entry link of ${project.projectCode}`} />
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>Close</Button>
        <Button asChild>
          <Link to="/supplier/project" onClick={onClose}>Go to Projects</Link>
        </Button>
      </DialogFooter>
    </div>
  );
}
