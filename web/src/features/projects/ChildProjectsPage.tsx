/**
 * /admin/project/:projectid/childs (part 1, 2.6): the child projects of a group project, with their
 * country, sample size and increment, a respondent click quota edited in place (saved on blur or
 * Enter), the counts, and a status menu of Live and Paused. Button New Child Project. The list opens
 * once the group project is known: for one that does not exist the page says so, with no actions.
 */
import * as React from "react";
import { Link, useParams } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Pencil } from "lucide-react";
import { api } from "../../lib/api.ts";
import { getProjectCall, updateProjectCall } from "../../../../shared/api/projects.ts";
import { notify } from "../../lib/notify.ts";
import { formatCount } from "../../lib/format.ts";
import { cn } from "../../lib/utils.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { completeReached, DataGrid, useCanEdit } from "../../components/data-grid/DataGrid.tsx";
import { NewButton } from "../../components/data-grid/NewButton.tsx";
import type { GridColumn } from "../../components/data-grid/types.ts";
import { useList } from "../../components/data-grid/useList.ts";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { buttonVariants } from "../../components/ui/button.tsx";
import { Input } from "../../components/ui/input.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { BackLink, quietNotFound, RecordLoadError } from "../../components/form/FormParts.tsx";
import { useProjectActions, useStatusChange } from "./actions.tsx";
import { completeColumn, cpiColumn, fieldStatsColumn, outcomeColumns, redirectsColumn } from "./columns.tsx";
import { type OpenDialog, ProjectDialogs } from "./ProjectDialogs.tsx";
import { childrenKey, childsList, projectKey, type ProjectRecord, type ProjectRow } from "./projects.ts";
import { ProjectStatusMenu, StatusBadge } from "./StatusMenu.tsx";

export default function ChildProjectsPage() {
  const { projectid: parentId = "" } = useParams();
  const parent = useQuery({
    queryKey: projectKey(parentId),
    queryFn: async ({ signal }) =>
      (await api(getProjectCall, { params: { id: parentId! } }, { signal, quiet: quietNotFound })).result,
  });
  const back = <BackLink to="/admin/project">Projects</BackLink>;
  // once known, a failed refresh does not take the list away
  if (parent.data) return <ChildProjects parentId={parentId} parent={parent.data} back={back} />;
  return (
    <>
      <PageHeader
        title="Child Projects"
        back={back}
        description={parent.isPending ? <Skeleton className="h-5 w-80" /> : undefined}
      />
      {parent.isPending
        ? <Skeleton className="h-96 w-full rounded-xl" aria-busy="true" aria-label="Loading child projects" />
        : (
          <RecordLoadError
            what="group project"
            error={parent.error}
            list={{ to: "/admin/project", label: "Projects" }}
            onRetry={() => void parent.refetch()}
          />
        )}
    </>
  );
}

/** The page of a group project that exists: its children's grid, with the header actions. */
function ChildProjects(
  { parentId, parent: p, back }: { parentId: string; parent: ProjectRecord; back: React.ReactNode },
) {
  const decl = React.useMemo(() => childsList(parentId), [parentId]);
  const list = useList<ProjectRow>(decl);
  const canEdit = useCanEdit();
  const qc = useQueryClient();
  const [dialog, setDialog] = React.useState<OpenDialog>(null);
  const [changeStatus, statusQuestion] = useStatusChange(list);
  const actions = useProjectActions({ list, open: setDialog, kind: "child" });
  const { patchRow, invalidate } = list;

  const columns = React.useMemo<GridColumn<ProjectRow>[]>(() => [
    {
      id: "projectCode",
      header: "Code",
      headerClassName: "pr-2",
      className: "pr-2",
      cell: (p) => (
        <Link
          to={`/admin/project/child/${p._id}/edit`}
          className="whitespace-nowrap rounded-sm font-medium text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring"
        >
          {p.projectCode}
        </Link>
      ),
    },
    {
      id: "projectName",
      header: "Project",
      className: "min-w-28 max-w-44",
      cell: (p) => <span className="line-clamp-2 font-medium" title={p.projectName}>{p.projectName}</span>,
    },
    {
      id: "countryName",
      header: "Country",
      className: "max-w-28",
      cell: (p) => p.countryName || "–",
    },
    completeColumn,
    {
      id: "sampleSizeInc",
      header: <abbr title="Sample size increment" className="no-underline">Inc.</abbr>,
      align: "right",
      headerClassName: "whitespace-normal leading-tight min-w-12 px-2",
      className: "tabular-nums px-2",
      cell: (p) => formatCount(p.sampleSizeInc),
    },
    {
      id: "respondentClickQuota",
      header: "Click quota",
      headerClassName: "whitespace-normal leading-tight px-2",
      className: "px-2",
      cell: (p) => (
        <ClickQuotaInput
          project={p}
          disabled={!canEdit}
          onSaved={(n) => patchRow(p._id, { respondentClickQuota: n })}
        />
      ),
    },
    ...outcomeColumns,
    cpiColumn,
    fieldStatsColumn,
    redirectsColumn((p) => setDialog({ kind: "redirects", project: p })),
    {
      id: "projectStatus",
      header: "Status",
      headerClassName: "px-2",
      className: "px-2",
      cell: (p) => (
        <ProjectStatusMenu
          project={p}
          disabled={!canEdit}
          onChange={(s) => changeStatus(p, s)}
        />
      ),
    },
  ], [canEdit, changeStatus, patchRow]);

  const onChanged = React.useCallback((p?: ProjectRow) => {
    void invalidate();
    void qc.invalidateQueries({ queryKey: projectKey(parentId) });
    void qc.invalidateQueries({ queryKey: childrenKey(parentId) });
    if (p) void qc.invalidateQueries({ queryKey: projectKey(p._id) });
  }, [invalidate, qc, parentId]);

  return (
    <>
      <PageHeader
        title="Child Projects"
        back={back}
        description={
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="font-medium text-foreground">{p.projectCode}</span>
            <span aria-hidden="true">·</span>
            <span>{p.projectName}</span>
            <span aria-hidden="true">·</span>
            <span>{p.clienName}</span>
            <StatusBadge status={p.projectStatus} label={p.projectStatusLabel} />
          </span>
        }
        actions={
          <>
            {canEdit
              ? (
                <Link
                  to={`/admin/project/${parentId}/edit`}
                  className={buttonVariants({ variant: "outline" })}
                >
                  <Pencil /> Edit group project
                </Link>
              )
              : null}
            <NewButton to={`/admin/project/child/${parentId}/add`}>New Child Project</NewButton>
          </>
        }
      />
      <FilterToolbar list={list} />
      <DataGrid
        list={list}
        columns={columns}
        rowActions={actions}
        warnRow={completeReached}
        caption="Child projects"
      />
      <ProjectDialogs
        open={dialog}
        onOpenChange={setDialog}
        onChanged={onChanged}
        onStatusChange={(p, s) => changeStatus(p, s, true)}
      />
      {statusQuestion}
    </>
  );
}

/** The respondent click quota, edited in the grid: saved on blur or Enter, Escape puts it back. */
function ClickQuotaInput({
  project,
  disabled,
  onSaved,
}: {
  project: ProjectRow;
  disabled: boolean;
  onSaved: (n: number) => void;
}) {
  const saved = String(project.respondentClickQuota ?? 0);
  const [text, setText] = React.useState(saved);
  const [busy, setBusy] = React.useState(false);
  const [bad, setBad] = React.useState(false);
  React.useEffect(() => setText(saved), [saved]);

  async function commit() {
    const value = text.trim();
    if (value === saved) return setBad(false);
    if (!/^\d+$/.test(value)) {
      setBad(true);
      notify.error("Only digits are allowed for this field ");
      return;
    }
    setBad(false);
    setBusy(true);
    try {
      const res = await api(updateProjectCall, {
        params: { id: project._id },
        body: { respondentClickQuota: Number(value) },
      });
      onSaved(Number(value));
      notify.success(res.message);
    } catch {
      setText(saved);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Input
      value={text}
      disabled={disabled || busy}
      inputMode="numeric"
      aria-label={`Respondent click quota of ${project.projectCode}`}
      aria-invalid={bad || undefined}
      className={cn("h-8 w-16 px-2 text-right tabular-nums", busy && "opacity-60")}
      onChange={(e) => setText(e.target.value)}
      onBlur={() => void commit()}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          e.currentTarget.blur();
        } else if (e.key === "Escape") {
          setText(saved);
          setBad(false);
        }
      }}
    />
  );
}
