/**
 * /admin/project (part 1, 2.6): group projects with their children's figures. Filters client,
 * manager, status, search (also the dashboard's ?search=), sort by, dates and export; 'url' and
 * 'notify' show the client return links; the status menu, the row menu and its dialogs; rows chosen
 * by checkbox open the drawer of their child projects.
 */
import * as React from "react";
import { Link, useSearchParams } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { BellRing, Link2 } from "lucide-react";
import { completeReached, DataGrid, useCanEdit } from "../../components/data-grid/DataGrid.tsx";
import { NewButton } from "../../components/data-grid/NewButton.tsx";
import type { GridColumn } from "../../components/data-grid/types.ts";
import { SEARCH_PARAM, useList } from "../../components/data-grid/useList.ts";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Popover, PopoverContent, PopoverTrigger } from "../../components/ui/popover.tsx";
import { canOpenScreen } from "../../../../shared/permissions.ts";
import { projectStatusLabel } from "../../../../shared/status.ts";
import { useAuth } from "../../lib/auth.ts";
import { useProjectActions, useStatusChange } from "./actions.tsx";
import { completeColumn, cpiColumn, fieldStatsColumn, outcomeColumns, redirectsColumn } from "./columns.tsx";
import { LinkList } from "./parts.tsx";
import { type OpenDialog, ProjectDialogs } from "./ProjectDialogs.tsx";
import {
  type ProjectRow,
  projectsList,
  type ProjectsListMeta,
  type ReturnLink,
  useProjectTabs,
} from "./projects.ts";
import { SelectionDrawer } from "./SelectionDrawer.tsx";
import { ProjectStatusMenu } from "./StatusMenu.tsx";

export const PROJECTS_DESCRIPTION =
  "Group projects for clients, their child projects per country, and how fieldwork is going.";

export default function ProjectsListPage() {
  useDashboardSearch();
  const tabs = useProjectTabs();
  const list = useList<ProjectRow>(projectsList);
  const canEdit = useCanEdit();
  const role = useAuth((st) => st.admin?.role);
  // SUBSCRIBER and BDE see the list but not the child screens
  const canOpenChilds = !!role && canOpenScreen(role, "/admin/project/x/childs");
  const qc = useQueryClient();
  const [dialog, setDialog] = React.useState<OpenDialog>(null);
  const [changeStatus, statusQuestion] = useStatusChange(list);
  const actions = useProjectActions({ list, open: setDialog, kind: "group" });
  const { patchRow, invalidate } = list;

  const columns = React.useMemo<GridColumn<ProjectRow>[]>(() => [
    {
      id: "projectCode",
      header: "Code",
      cell: (p) => (
        <div className="flex flex-col">
          {canOpenChilds
            ? (
              <Link
                to={`/admin/project/${p._id}/childs`}
                className="w-fit whitespace-nowrap rounded-sm font-medium text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring"
              >
                {p.projectCode}
              </Link>
            )
            : <span className="whitespace-nowrap font-medium">{p.projectCode}</span>}
          <span className="whitespace-nowrap text-xs text-muted-foreground">
            {p.childCount ?? 0} child{(p.childCount ?? 0) === 1 ? "" : "ren"}
          </span>
        </div>
      ),
    },
    {
      id: "projectName",
      header: "Project",
      className: "min-w-40 max-w-60",
      cell: (p) => (
        <div className="flex flex-col">
          <span className="line-clamp-2 font-medium" title={p.projectName}>{p.projectName}</span>
          {p.managerName ? <span className="text-xs text-muted-foreground">{p.managerName}</span> : null}
        </div>
      ),
    },
    {
      id: "clienName",
      header: "Client",
      className: "min-w-28 max-w-44",
      // long names wrap inside the column instead of running under the next one
      cell: (p) => <span className="block max-w-44 whitespace-normal break-words">{p.clienName}</span>,
    },
    completeColumn,
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
          onClose={() => setDialog({ kind: "close", project: p })}
        />
      ),
    },
  ], [canEdit, canOpenChilds, changeStatus]);

  const onChanged = React.useCallback((p?: ProjectRow) => {
    if (p && p.projectType === 1) {
      patchRow(p._id, {
        projectStatus: p.projectStatus,
        projectStatusLabel: p.projectStatusLabel || projectStatusLabel(p.projectStatus),
        poNumber: p.poNumber,
      });
    }
    void invalidate();
    if (p) void qc.invalidateQueries({ queryKey: ["project", p._id] });
  }, [patchRow, invalidate, qc]);

  // the server builds the links (PUBLIC_URL, else this address) with the router's own builder
  const meta = list.metadata as ProjectsListMeta | undefined;

  return (
    <>
      <PageHeader title="Projects" description={PROJECTS_DESCRIPTION} tabs={tabs} />
      <FilterToolbar
        list={list}
        actions={
          <>
            <LinksButton
              label="URL"
              icon={<Link2 />}
              title="Client return links"
              links={meta?.postBacks}
            >
              Give these to the client for the end of its survey; it fills in [uid]. A project with Secured
              Url on also signs each link (&sig=[sig]): its Redirects show the exact links.
            </LinksButton>
            <LinksButton
              label="Notify"
              icon={<BellRing />}
              title="Notify (post-back)"
              links={meta?.notifyUrls}
            >
              For clients whose system reports each outcome server to server instead of redirecting; [status]
              is c (complete), t (terminate), q (over quota) or f (quality term).
            </LinksButton>
            <NewButton to="/admin/project/add">Add Project</NewButton>
          </>
        }
      />
      <DataGrid
        list={list}
        columns={columns}
        rowActions={actions}
        warnRow={completeReached}
        selectable={canEdit}
        selectionBar={(rows, clear) => <SelectionDrawer projects={rows} onClear={clear} />}
        caption="Projects"
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

/** The dashboard's Search Project box arrives as ?search= (or ?q=): it becomes the grid's search. */
function useDashboardSearch() {
  const [params, setParams] = useSearchParams();
  const incoming = params.get("search");
  React.useEffect(() => {
    if (incoming === null) return;
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      next.delete("search");
      if (incoming.trim()) next.set(SEARCH_PARAM, incoming.trim());
      return next;
    }, { replace: true });
  }, [incoming, setParams]);
}

function LinksButton({
  label,
  icon,
  title,
  links,
  children,
}: {
  label: string;
  icon: React.ReactNode;
  title: string;
  /** Undefined until the list has answered. */
  links: ReturnLink[] | undefined;
  children: React.ReactNode;
}) {
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline">
          {icon} {label}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="flex w-[28rem] max-w-[calc(100vw-2rem)] flex-col gap-2">
        <p className="font-medium">{title}</p>
        <p className="text-xs text-muted-foreground">{children}</p>
        {links ? <LinkList links={links} /> : <p className="text-xs text-muted-foreground">Loading links…</p>}
      </PopoverContent>
    </Popover>
  );
}
