/**
 * Identifiers (part 2, 7 "Reports and exports": POST /admin/project/identifiers/report
 * {projectData, supplier}): downloads a project's respondents (a group project's: all its
 * children's) as CSV with the Support Identifiers columns, of every supplier or of the one chosen
 * among the suppliers mapped to the project (its Supplier Stats list).
 */
import * as React from "react";
import { useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { api, download } from "../../lib/api.ts";
import { projectIdentifiersReportCall } from "../../../../shared/api/project-reports.ts";
import { supplierStatsCall } from "../../../../shared/api/supplier-maps.ts";
import { saveBlob } from "../../lib/download.ts";
import { notify } from "../../lib/notify.ts";
import { Button } from "../../components/ui/button.tsx";
import { Label } from "../../components/ui/label.tsx";
import { Select } from "../../components/ui/select.tsx";
import {
  DialogClose,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import { RowDialog } from "../../components/dialogs/RowDialog.tsx";
import type { ProjectRow } from "./projects.ts";
import { subtitle } from "./parts.tsx";

/** The select's value for "every supplier" (a select item cannot have "" as its value). */
const ALL = "all";

export function IdentifiersReportDialog(
  { project, onClose }: { project: ProjectRow | null; onClose: () => void },
) {
  return (
    <RowDialog row={project} onClose={onClose} className="max-w-lg">
      {(p) => <IdentifiersForm key={p._id} project={p} onDone={onClose} />}
    </RowDialog>
  );
}

function IdentifiersForm({ project, onDone }: { project: ProjectRow; onDone: () => void }) {
  const [supplier, setSupplier] = React.useState(ALL);
  const [busy, setBusy] = React.useState(false);
  const suppliers = useQuery({
    queryKey: ["project-suppliers", project._id],
    staleTime: 0,
    queryFn: async ({ signal }) =>
      (await api(supplierStatsCall, { params: { projectId: project._id } }, { signal })).result,
  });
  const options = [
    { value: ALL, label: "All suppliers" },
    ...(suppliers.data ?? []).map((s) => ({ value: s.supplierId, label: s.supplierName || s.supplierId })),
  ];
  const id = React.useId();

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const { blob, filename } = await download(projectIdentifiersReportCall, {
        body: { projectData: project._id, supplier: supplier === ALL ? "" : supplier },
      });
      saveBlob(blob, filename ?? `${project.projectCode}-identifiers.csv`);
      notify.success("Export ready");
      onDone();
    } catch {
      // the API client has shown the reason
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Identifiers</DialogTitle>
        <DialogDescription>
          {subtitle(project)}: the respondents' identifiers as CSV, of every supplier or of one.
        </DialogDescription>
      </DialogHeader>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={id}>Supplier</Label>
        <Select
          id={id}
          value={supplier}
          onValueChange={setSupplier}
          options={options}
          disabled={suppliers.isPending}
        />
        <p className="text-xs text-muted-foreground">
          {suppliers.isPending
            ? "Loading the project's suppliers…"
            : suppliers.isError
            ? "The project's suppliers could not be loaded: every supplier's respondents download."
            : suppliers.data.length === 0
            ? "No supplier mapped yet."
            : "The suppliers mapped to the project."}
        </p>
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" loading={busy}>
          <Download /> Download
        </Button>
      </DialogFooter>
    </form>
  );
}
