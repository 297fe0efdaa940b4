/**
 * /admin/project/child/:id/edit (part 1, 2.6): Edit Child Project. The header switches between the
 * sibling child projects by code (replacing history); seven tabs: Project Information, Project Quota,
 * Project URLs, Project Securities, Pre Questionaire and Suppliers (with count badges) and
 * Exclude/Include. The tab lives in the address (?tab=) so a reload or a shared link keeps it.
 * A tab once opened stays mounted (hidden when another is shown), so what was typed there survives
 * a look at another tab; all panels are the full page width, for the grids; one guard asks before
 * leaving with unsaved changes in any of them.
 */
import * as React from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import { childOptionsCall, getProjectCall } from "../../../../shared/api/projects.ts";
import { cn } from "../../lib/utils.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { UnsavedChangesScope } from "../../components/form/unsaved-changes.tsx";
import { buttonVariants } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Select } from "../../components/ui/select.tsx";
import { BackLink, FormSkeleton, quietNotFound, RecordLoadError } from "../../components/form/FormParts.tsx";
import { ChildProjectForm } from "./ChildProjectForm.tsx";
import { childrenKey, projectKey, type ProjectRecord } from "./projects.ts";
import { StatusBadge } from "./StatusMenu.tsx";
import { QuotaTab } from "./tabs/QuotaTab.tsx";
import { UrlsTab } from "./tabs/UrlsTab.tsx";
import { SecurityTab } from "./tabs/SecurityTab.tsx";
import { QuestionsTab } from "./tabs/QuestionsTab.tsx";
import { SuppliersTab } from "./tabs/SuppliersTab.tsx";
import { ExclusionsTab } from "./tabs/ExclusionsTab.tsx";

const TABS = [
  { id: "info", label: "Project Information" },
  { id: "quota", label: "Project Quota" },
  { id: "urls", label: "Project URLs" },
  { id: "security", label: "Project Securities" },
  { id: "questions", label: "Pre Questionaire" },
  { id: "suppliers", label: "Suppliers" },
  { id: "exclude", label: "Exclude/Include" },
] as const;
type TabId = (typeof TABS)[number]["id"];

export default function ChildProjectEditPage() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const raw = params.get("tab");
  const tab: TabId = TABS.some((t) => t.id === raw) ? raw as TabId : "info";

  const project = useQuery({
    queryKey: projectKey(id),
    queryFn: async ({ signal }) =>
      (await api(getProjectCall, { params: { id: id! } }, { signal, quiet: quietNotFound })).result,
  });
  const parentId = project.data?.parentProjectId;
  const siblings = useQuery({
    queryKey: childrenKey(parentId),
    enabled: !!parentId,
    queryFn: async ({ signal }) =>
      (await api(childOptionsCall, { params: { parentProjectId: parentId! } }, { signal })).result,
  });

  function setTab(next: TabId) {
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      if (next === "info") p.delete("tab");
      else p.set("tab", next);
      return p;
    }, { replace: true });
  }

  const p = project.data;
  const siblingOptions = (siblings.data ?? []).map((s) => ({ value: s._id, label: s.projectCode }));
  if (p && !siblingOptions.some((o) => o.value === p._id)) {
    siblingOptions.unshift({ value: p._id, label: p.projectCode });
  }

  return (
    <UnsavedChangesScope>
      <PageHeader
        title="Edit Child Project"
        // the same words while loading and after: only where it leads comes from the record
        back={
          <BackLink to={parentId ? `/admin/project/${parentId}/childs` : "/admin/project"}>
            Child projects
          </BackLink>
        }
        description={p
          ? (
            <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <span>{p.projectName}</span>
              <span aria-hidden="true">·</span>
              <span>{p.clienName}</span>
              <StatusBadge status={p.projectStatus} label={p.projectStatusLabel} />
            </span>
          )
          : project.isPending
          ? "Loading the project…"
          : undefined}
        actions={p && p.projectType === 2
          ? (
            <label className="flex items-center gap-2 text-sm text-muted-foreground">
              Child project
              <Select
                ariaLabel="Switch child project"
                className="w-40 font-medium text-foreground"
                value={p._id}
                options={siblingOptions}
                onValueChange={(v) => {
                  if (v !== p._id) {
                    navigate(`/admin/project/child/${v}/edit${tab === "info" ? "" : `?tab=${tab}`}`, {
                      replace: true,
                    });
                  }
                }}
              />
            </label>
          )
          : null}
      />
      {project.isPending ? <FormSkeleton label="Loading child project" /> : project.isError
        ? (
          <RecordLoadError
            what="child project"
            error={project.error}
            list={{ to: "/admin/project", label: "Projects" }}
            onRetry={() => void project.refetch()}
          />
        )
        : project.data.projectType !== 2
        ? <NotAChild project={project.data} />
        // another child project starts with its own tabs: nothing typed for one is kept for another
        : <ChildTabs key={project.data._id} tab={tab} onTab={setTab} project={project.data} />}
    </UnsavedChangesScope>
  );
}

/** The address names a group project: say so, and lead to its edit form and its child projects. */
function NotAChild({ project }: { project: ProjectRecord }) {
  return (
    <Card className="flex flex-col items-start gap-1 p-6" role="region" aria-label="Not a child project">
      <p className="font-medium">{project.projectCode} is a group project, not a child project.</p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Link to={`/admin/project/${project._id}/edit`} className={buttonVariants({ variant: "outline" })}>
          Edit the group project
        </Link>
        <Link to={`/admin/project/${project._id}/childs`} className={buttonVariants({ variant: "outline" })}>
          Its child projects
        </Link>
      </div>
    </Card>
  );
}

/**
 * The tab strip and the seven panels, all the full page width. A panel is mounted the first time
 * its tab opens and then kept (hidden while another tab shows), so what was typed in one tab and not
 * saved yet is still there on return.
 */
function ChildTabs(
  { tab, onTab, project }: { tab: TabId; onTab: (t: TabId) => void; project: ProjectRecord },
) {
  const [opened, setOpened] = React.useState<ReadonlySet<TabId>>(() => new Set([tab]));
  if (!opened.has(tab)) setOpened(new Set(opened).add(tab));
  return (
    <>
      <TabStrip tab={tab} onTab={onTab} project={project} />
      {TABS.map((t) => (
        <div
          key={t.id}
          role="tabpanel"
          id={`panel-${t.id}`}
          aria-labelledby={`tab-${t.id}`}
          hidden={t.id !== tab}
          className="w-full pt-5"
        >
          {opened.has(t.id) || t.id === tab ? <TabContent tab={t.id} project={project} /> : null}
        </div>
      ))}
    </>
  );
}

function TabContent({ tab, project }: { tab: TabId; project: ProjectRecord }) {
  switch (tab) {
    case "info":
      return <ChildProjectForm project={project} />;
    case "quota":
      return <QuotaTab project={project} />;
    case "urls":
      return <UrlsTab project={project} />;
    case "security":
      return <SecurityTab project={project} />;
    case "questions":
      return <QuestionsTab project={project} />;
    case "suppliers":
      return <SuppliersTab project={project} />;
    case "exclude":
      return <ExclusionsTab project={project} />;
  }
}

/** The seven tabs as an ARIA tab list: arrow keys, Home and End move between them. */
function TabStrip(
  { tab, onTab, project }: { tab: TabId; onTab: (t: TabId) => void; project: ProjectRecord },
) {
  const refs = React.useRef<Record<string, HTMLButtonElement | null>>({});
  const counts: Partial<Record<TabId, number>> = {
    questions: project.questionCount,
    suppliers: project.supplierCount,
  };
  function onKey(e: React.KeyboardEvent) {
    const i = TABS.findIndex((t) => t.id === tab);
    const next = e.key === "ArrowRight"
      ? (i + 1) % TABS.length
      : e.key === "ArrowLeft"
      ? (i - 1 + TABS.length) % TABS.length
      : e.key === "Home"
      ? 0
      : e.key === "End"
      ? TABS.length - 1
      : -1;
    if (next < 0) return;
    e.preventDefault();
    onTab(TABS[next].id);
    refs.current[TABS[next].id]?.focus();
  }
  return (
    <div
      role="tablist"
      aria-label="Child project sections"
      className="flex gap-1 overflow-x-auto border-b"
      onKeyDown={onKey}
    >
      {TABS.map((t) => {
        const active = t.id === tab;
        const count = counts[t.id];
        return (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[t.id] = el;
            }}
            id={`tab-${t.id}`}
            type="button"
            role="tab"
            aria-selected={active}
            aria-controls={`panel-${t.id}`}
            tabIndex={active ? 0 : -1}
            onClick={() => onTab(t.id)}
            className={cn(
              "-mb-px flex cursor-pointer items-center gap-2 whitespace-nowrap rounded-t-md border-b-2 px-3 py-2 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring",
              active
                ? "border-primary text-primary"
                : "border-transparent text-muted-foreground hover:border-border hover:text-foreground",
            )}
          >
            {t.label}
            {count !== undefined
              ? (
                <span
                  className={cn(
                    "min-w-5 rounded-full px-1.5 text-center text-xs tabular-nums",
                    active ? "bg-primary text-primary-foreground" : "bg-muted text-muted-foreground",
                  )}
                  aria-label={`${count} ${t.id === "questions" ? "questions" : "suppliers"}`}
                  data-testid={`${t.id}-count`}
                >
                  {count > 100_000 ? "100000+" : count}
                </span>
              )
              : null}
          </button>
        );
      })}
    </div>
  );
}
