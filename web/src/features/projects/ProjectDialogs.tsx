/**
 * The row dialogs of the project grids (part 1, 2.6), behind one switch: Logs (activity timeline),
 * Security stats, Supplier Stats, Redirects, Prescreen Data, Identifiers, Supplier Mapped, Send Bulk Email, Clone Criteria,
 * Edit Status, Close (PO number) and the second question of Proceed to Invoice and Archieve (e-mail
 * the suppliers?). Each loads what it shows when it opens.
 */
import * as React from "react";
import type * as v from "valibot";
import { useNavigate } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { Copy, Mail } from "lucide-react";
import { CloneOptions, EmailForm } from "../../../../shared/schemas/project.ts";
import { projectStatusLabel } from "../../../../shared/status.ts";
import { api } from "../../lib/api.ts";
import { childOptionsCall, cloneProjectCall, updateProjectCall } from "../../../../shared/api/projects.ts";
import { listSupplierMapsCall } from "../../../../shared/api/supplier-maps.ts";
import { sendProjectEmailCall } from "../../../../shared/api/project-reports.ts";
import { notify } from "../../lib/notify.ts";
import { formatCount, formatDateTime, formatMoney } from "../../lib/format.ts";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { SubmitButton } from "../../components/form/fields.tsx";
import { RichTextField } from "../../components/form/rich-text-field.tsx";
import { SelectField } from "../../components/form/select-field.tsx";
import { SwitchField } from "../../components/form/switch-field.tsx";
import { useOptions } from "../../components/filters/useOptions.ts";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import { COUNTRIES } from "../../lib/lookups.ts";
import { LANGUAGES, type LogItem, type ProjectRow, type SupplierMapRow } from "./projects.ts";
import { LogActivity } from "../../components/display/LogActivity.tsx";
import { CopyButton } from "../../components/display/CopyButton.tsx";
import { EmptyState, ErrorState, LoadingRows } from "../../components/display/states.tsx";
import { SimpleTable } from "../../components/table/SimpleTable.tsx";
import { subtitle } from "./parts.tsx";
import { ViewDialog } from "../../components/dialogs/ViewDialog.tsx";
import { CloseProjectDialog, EditStatusDialog } from "./StatusMenu.tsx";
import { SupplierStatsDialog } from "./SupplierStatsDialog.tsx";
import { SecurityStatsDialog } from "./SecurityStatsDialog.tsx";
import { RedirectsDialog } from "./RedirectsDialog.tsx";
import { PrescreenDataDialog } from "./PrescreenDataDialog.tsx";
import { IdentifiersReportDialog } from "./IdentifiersReportDialog.tsx";
import { systemLogCall } from "../../../../shared/api/system-log.ts";

export type DialogKind =
  | "logs"
  | "security"
  | "supplierStats"
  | "redirects"
  | "prescreen"
  | "identifiers"
  | "supplierMapped"
  | "email"
  | "clone"
  | "status"
  | "close"
  | "invoice"
  | "archive";

export type OpenDialog = { kind: DialogKind; project: ProjectRow } | null;

export function ProjectDialogs({
  open,
  onOpenChange,
  onChanged,
  onStatusChange,
}: {
  open: OpenDialog;
  onOpenChange: (open: OpenDialog) => void;
  /** A dialog changed the project (closed, invoiced, archived): refresh the grid. */
  onChanged: (project?: ProjectRow) => void;
  /** Edit Status chose a status set at once: the same change as the grid's status menu. */
  onStatusChange: (project: ProjectRow, status: number) => void;
}) {
  const close = () => onOpenChange(null);
  const is = (k: DialogKind) => (open?.kind === k ? open.project : null);
  return (
    <>
      <LogsDialog project={is("logs")} onClose={close} />
      <SecurityStatsDialog project={is("security")} onClose={close} />
      <SupplierStatsDialog project={is("supplierStats")} onClose={close} />
      <RedirectsDialog project={is("redirects")} onClose={close} />
      <PrescreenDataDialog project={is("prescreen")} onClose={close} />
      <IdentifiersReportDialog project={is("identifiers")} onClose={close} />
      <SupplierMappedDialog project={is("supplierMapped")} onClose={close} />
      <ProjectEmailDialog
        projects={is("email") ? [is("email")!] : []}
        onClose={close}
      />
      <CloneDialog project={is("clone")} onClose={close} />
      <EditStatusDialog
        project={is("status")}
        onOpenChange={(o) => !o && close()}
        onChange={(status) => {
          const p = is("status");
          close();
          if (p) onStatusChange(p, status);
        }}
        onClose={() => {
          const p = is("status");
          if (p) onOpenChange({ kind: "close", project: p });
        }}
      />
      <CloseProjectDialog
        project={is("close")}
        onOpenChange={(o) => !o && close()}
        onClosed={(p) => {
          close();
          onChanged(p);
        }}
      />
      <SupplierEmailQuestion
        project={is("invoice") ?? is("archive")}
        to={open?.kind === "archive" ? 7 : 4}
        onClose={close}
        onDone={(p) => {
          close();
          onChanged(p);
        }}
      />
    </>
  );
}

// ---------------------------------------------------------------- Logs

function LogsDialog({ project, onClose }: { project: ProjectRow | null; onClose: () => void }) {
  const logs = useQuery({
    queryKey: ["project-logs", project?._id],
    enabled: !!project,
    staleTime: 0,
    queryFn: async ({ signal }) => {
      const { result } = await api(systemLogCall, { body: { filter: project!._id } }, { signal });
      return (Array.isArray(result) ? result : []) as LogItem[];
    },
  });
  return (
    <ViewDialog
      open={!!project}
      onClose={onClose}
      title="Logs"
      description={project ? `${subtitle(project)}: every change, newest first.` : undefined}
    >
      {logs.isPending
        ? <LoadingRows label="Loading logs" rows={4} />
        : logs.isError
        ? <ErrorState what="logs" error={logs.error} onRetry={() => void logs.refetch()} />
        : logs.data.length === 0
        ? <EmptyState text="No activity yet" />
        : (
          <ol className="relative ml-2 border-l pl-5" aria-label="Activity" data-testid="log-timeline">
            {logs.data.map((l) => (
              <li key={l._id} className="relative pb-4 last:pb-0">
                <span
                  className="absolute -left-[25px] top-1.5 size-2.5 rounded-full border-2 border-card bg-primary"
                  aria-hidden="true"
                />
                <LogActivity activity={l.activity} changes={l.changes} className="font-medium leading-snug" />
                <p className="text-xs text-muted-foreground">
                  <time dateTime={l.createdAt}>{formatDateTime(l.createdAt)}</time> · by {l.name || "system"}
                </p>
              </li>
            ))}
          </ol>
        )}
    </ViewDialog>
  );
}

// ---------------------------------------------------------------- Supplier Mapped

type MappedRow = SupplierMapRow & { projectCode: string };

function SupplierMappedDialog({ project, onClose }: { project: ProjectRow | null; onClose: () => void }) {
  const maps = useQuery({
    queryKey: ["supplier-mapped", project?._id],
    enabled: !!project,
    staleTime: 0,
    queryFn: async ({ signal }): Promise<MappedRow[]> => {
      const p = project!;
      const children: { _id: string; projectCode: string }[] = p.projectType === 2
        ? [p]
        : (await api(childOptionsCall, { params: { parentProjectId: p._id } }, { signal })).result;
      const lists = await Promise.all(children.map(async (c) => {
        const res = await api(listSupplierMapsCall, { body: { projectId: c._id, search: "" } }, { signal });
        return res.result.map((m) => ({ ...m, projectCode: c.projectCode }));
      }));
      return lists.flat();
    },
  });
  return (
    <ViewDialog
      open={!!project}
      onClose={onClose}
      className="max-w-5xl"
      title="Supplier Mapped"
      description={project
        ? `${subtitle(project)}: suppliers sending respondents and how they do.`
        : undefined}
    >
      {maps.isPending
        ? <LoadingRows label="Loading supplier maps" />
        : maps.isError
        ? <ErrorState what="supplier maps" error={maps.error} onRetry={() => void maps.refetch()} />
        : maps.data.length === 0
        ? <EmptyState text="No suppliers mapped yet" />
        : (
          <SimpleTable
            caption="Mapped suppliers"
            head={
              <>
                <th>Project</th>
                <th>Supplier</th>
                <th className="text-right">CPI</th>
                <th className="text-right">Quota</th>
                <th className="text-right">Complete</th>
                <th className="text-right">ST</th>
                <th className="text-right">OQ</th>
                <th className="text-right">Clicked</th>
                <th>Traffic</th>
                <th>Entry link</th>
              </>
            }
          >
            {maps.data.map((m) => (
              <tr key={m._id}>
                <td className="whitespace-nowrap">{m.projectCode}</td>
                <td className="font-medium">{m.supplierName}</td>
                <td className="text-right tabular-nums">{formatMoney(m.supplierCPI)}</td>
                <td className="text-right tabular-nums">{formatCount(m.supplierQuota)}</td>
                <td className="text-right tabular-nums">{formatCount(m.complete)}</td>
                <td className="text-right tabular-nums">{formatCount(m.terminate)}</td>
                <td className="text-right tabular-nums">{formatCount(m.overQuota)}</td>
                <td className="text-right tabular-nums">{formatCount(m.clicked)}</td>
                <td>
                  <Badge tone={m.allowTraffic ? "green" : "zinc"}>
                    {m.allowTraffic ? "Active" : "InActive"}
                  </Badge>
                </td>
                <td>
                  <span className="flex items-center gap-1">
                    <code className="max-w-48 truncate text-xs" title={m.redirectUrl}>{m.redirectUrl}</code>
                    <CopyButton text={m.redirectUrl} label={`entry link of ${m.supplierName}`} />
                  </span>
                </td>
              </tr>
            ))}
          </SimpleTable>
        )}
    </ViewDialog>
  );
}

// ---------------------------------------------------------------- Send Bulk Email (per project)

const EMPTY_EMAIL = { type: "project", projectId: "", emailBody: "" };

/**
 * One message to the suppliers mapped to each project given (POST /admin/email/send per project).
 * Used by the row action (one project) and the selection drawer (its child projects).
 */
export function ProjectEmailDialog({
  projects,
  title = "Send Bulk Email",
  onClose,
  onSent,
}: {
  projects: Pick<ProjectRow, "_id" | "projectCode" | "projectName">[];
  title?: string;
  onClose: () => void;
  onSent?: () => void;
}) {
  const open = projects.length > 0;
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-w-2xl" onInteractOutside={(e) => e.preventDefault()}>
        {open
          ? (
            <EmailFormBody
              projects={projects}
              title={title}
              onSent={() => {
                onClose();
                onSent?.();
              }}
            />
          )
          : null}
      </DialogContent>
    </Dialog>
  );
}

function EmailFormBody({
  projects,
  title,
  onSent,
}: {
  projects: Pick<ProjectRow, "_id" | "projectCode" | "projectName">[];
  title: string;
  onSent: () => void;
}) {
  const form = useSchemaForm(EmailForm, EMPTY_EMAIL);
  async function submit(values: { emailBody: string }) {
    const body = (p: { _id: string }) => ({ type: "project", projectId: p._id, emailBody: values.emailBody });
    if (projects.length === 1) {
      const res = await api(sendProjectEmailCall, { body: body(projects[0]) });
      notify.success(res.message);
      onSent();
      return;
    }
    // several projects: each gets its own message; one without recipients does not stop the others
    let queued = 0;
    const failed: string[] = [];
    for (const p of projects) {
      try {
        const res = await api(sendProjectEmailCall, { body: body(p) }, { quiet: true });
        queued += res.result?.queued ?? 0;
      } catch (e) {
        failed.push(`${p.projectCode} (${e instanceof Error ? e.message : "failed"})`);
      }
    }
    const sent = projects.length - failed.length;
    if (sent === 0) {
      notify.error(`No e-mail sent: ${failed.join("; ")}`);
      return;
    }
    const summary = `${queued} e-mail${queued === 1 ? "" : "s"} queued for ${sent} project${
      sent === 1 ? "" : "s"
    }`;
    if (failed.length) notify.warning(`${summary}; not sent for ${failed.join("; ")}`);
    else notify.success(summary);
    onSent();
  }
  const one = projects.length === 1 ? projects[0] : null;
  return (
    <Form form={form} onSubmit={submit} className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>
          {one
            ? `${one.projectCode} · ${one.projectName}: goes to every supplier mapped to the project.`
            : `Goes to the suppliers mapped to each of ${projects.length} projects: ${
              projects.map((p) => p.projectCode).join(", ")
            }.`}
        </DialogDescription>
      </DialogHeader>
      <RichTextField
        name="emailBody"
        label="Body"
        required
        minHeight={220}
        placeholder="Write your message…"
      />
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">Cancel</Button>
        </DialogClose>
        <SubmitButton>
          <Mail /> Send
        </SubmitButton>
      </DialogFooter>
    </Form>
  );
}

// ---------------------------------------------------------------- Clone Criteria

const CLONE_DEFAULTS = {
  isPreScreen: true,
  isSupplier: true,
  isLiveUrl: true,
  isQuota: true,
  countryId: "",
  languageId: "en",
};

function CloneDialog({ project, onClose }: { project: ProjectRow | null; onClose: () => void }) {
  return (
    <Dialog open={!!project} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="max-w-xl" onInteractOutside={(e) => e.preventDefault()}>
        {project ? <CloneForm project={project} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function CloneForm({ project }: { project: ProjectRow }) {
  const navigate = useNavigate();
  const form = useSchemaForm(CloneOptions, {
    ...CLONE_DEFAULTS,
    countryId: project.projectType === 2 ? project.countryId ?? "" : "",
    languageId: project.projectType === 2 ? project.languageId || "en" : "en",
  });
  const countries = useOptions(COUNTRIES);
  const languages = useOptions(LANGUAGES);
  async function submit(values: v.InferOutput<typeof CloneOptions>) {
    const res = await api(cloneProjectCall, { params: { projectId: project._id }, body: values });
    notify.success(res.message);
    navigate(`/admin/project/${res.result.parentProjectId}/childs`);
  }
  return (
    <Form form={form} onSubmit={submit} className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Clone Criteria</DialogTitle>
        <DialogDescription>
          {subtitle(project)}: a new group project {project.projectType === 1
            ? "with a copy of every child project"
            : "holding a copy of this child project"}; counts start at zero.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-3 sm:grid-cols-2">
        <SwitchField name="isPreScreen" label="Pre-screen questions" description="Copy the questions." />
        <SwitchField name="isSupplier" label="Suppliers" description="Copy the supplier maps." />
        <SwitchField name="isLiveUrl" label="Live URL" description="Copy live, test and multi links." />
        <SwitchField name="isQuota" label="Quotas" description="Copy quotas and their sizes." />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          name="countryId"
          label="Country"
          required
          options={countries.options}
          placeholder={countries.loading ? "Loading countries…" : "Select a country"}
        />
        <SelectField
          name="languageId"
          label="Language"
          required
          options={languages.options}
          placeholder={languages.loading ? "Loading languages…" : "Select a language"}
        />
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">Cancel</Button>
        </DialogClose>
        <SubmitButton>
          <Copy /> Clone
        </SubmitButton>
      </DialogFooter>
    </Form>
  );
}

// ---------------------------------------------------------------- Proceed to Invoice / Archieve

/**
 * The second question of Proceed to Invoice (4) and Archieve (7), after 'Are you sure?': whether
 * to e-mail the mapped suppliers. The status goes with the answer as sendEmail.
 */
function SupplierEmailQuestion({
  project,
  to,
  onClose,
  onDone,
}: {
  project: ProjectRow | null;
  to: 4 | 7;
  onClose: () => void;
  onDone: (p: ProjectRow) => void;
}) {
  const [busy, setBusy] = React.useState<"yes" | "no" | null>(null);
  async function apply(sendEmail: boolean) {
    if (!project) return;
    setBusy(sendEmail ? "yes" : "no");
    try {
      const res = await api(updateProjectCall, {
        params: { id: project._id },
        body: { projectStatus: to, sendEmail },
      });
      notify.success(res.message);
      onDone(res.result);
    } catch {
      // the API client has shown the reason
    } finally {
      setBusy(null);
    }
  }
  const action = to === 4 ? "Proceed to Invoice" : "Archieve";
  return (
    <Dialog open={!!project} onOpenChange={(o) => !o && !busy && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>E-mail the suppliers?</DialogTitle>
          <DialogDescription>
            {project
              ? `${project.projectCode} moves to ${projectStatusLabel(to)}. Tell every supplier mapped to it?`
              : null}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" disabled={!!busy} onClick={onClose}>Cancel</Button>
          <Button
            variant="secondary"
            loading={busy === "no"}
            disabled={!!busy}
            onClick={() => void apply(false)}
          >
            {action} only
          </Button>
          <Button loading={busy === "yes"} disabled={!!busy} onClick={() => void apply(true)}>
            <Mail /> {action} and e-mail
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
