/**
 * /admin/project/fetch (part 1, 2.6, Projects External): the offers imported from the external
 * sample providers, where each came from (the Sandbox labelled) and how its offer stands now (open,
 * closed, vanished). With nothing imported and no provider connected, it says so plainly (design,
 * section 6) instead of an empty grid.
 */
import { useMemo } from "react";
import { Link } from "react-router";
import { CloudOff } from "lucide-react";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn } from "../../components/data-grid/types.ts";
import { formatDate, formatMoney, isoDayToDisplay } from "../../lib/format.ts";
import { projectStatusLabel } from "../../../../shared/status.ts";
import type { ProviderState } from "../../../../shared/api/providers.ts";
import { externalDecl, type ExternalProjectItem } from "../imports/imports.ts";
import { PROJECTS_DESCRIPTION } from "./ProjectsListPage.tsx";
import { useProjectTabs } from "./projects.ts";

const PROVIDERS = ["PRECISION", "LOGIT", "TOLUNA", "CIRCLE", "MRKT"];
const OFFER_TONES = { open: "green", closed: "amber", vanished: "red" } as const;

export default function ExternalProjectsPage() {
  const tabs = useProjectTabs();
  const list = useList<ExternalProjectItem>(externalDecl);
  const providers = (list.metadata as { providers?: ProviderState[] } | undefined)?.providers;
  const columns = useMemo<GridColumn<ExternalProjectItem>[]>(() => [
    {
      id: "projectCode",
      header: "Project",
      className: "min-w-48",
      cell: (r) => (
        <div className="flex flex-col">
          <Link
            to={`/admin/project/${r.groupProjectId}/childs`}
            className="font-medium text-primary hover:underline"
          >
            {r.projectCode}
          </Link>
          <span className="text-xs text-muted-foreground">{r.projectName}</span>
        </div>
      ),
    },
    {
      id: "provider",
      header: "From",
      cell: (r) => (
        <span className="flex items-center gap-1.5">
          {r.providerName} {r.sandbox ? <Badge tone="amber">Sandbox</Badge> : null}
        </span>
      ),
    },
    { id: "surveyId", header: "Survey ID", cell: (r) => r.surveyId },
    { id: "countryCode", header: "Country", cell: (r) => r.countryCode },
    { id: "clientName", header: "Client", cell: (r) => r.clientName },
    { id: "status", header: "Status", cell: (r) => projectStatusLabel(r.projectStatus) },
    { id: "cpi", header: "CPI", align: "right", cell: (r) => formatMoney(r.cpi) },
    { id: "remaining", header: "Remaining", align: "right", cell: (r) => r.remaining },
    { id: "complete", header: "Complete", align: "right", cell: (r) => `${r.complete} / ${r.sampleSize}` },
    {
      id: "offerState",
      header: "Offer",
      cell: (r) => (
        <Badge tone={OFFER_TONES[r.offerState as keyof typeof OFFER_TONES] ?? "neutral"}>
          {r.offerState}
        </Badge>
      ),
    },
    { id: "endDate", header: "End date", cell: (r) => (r.endDate ? isoDayToDisplay(r.endDate) : "") },
    { id: "createdAt", header: "Imported", cell: (r) => formatDate(r.createdAt) },
  ], []);

  const none = providers && !providers.some((p) => p.configured) && list.total === 0 &&
    !list.hasActiveFilters;
  return (
    <>
      <PageHeader title="Projects" description={PROJECTS_DESCRIPTION} tabs={tabs} />
      {none
        ? (
          <Card
            className="flex flex-col items-center gap-4 px-6 py-14 text-center"
            data-testid="external-empty"
          >
            <span className="grid size-12 place-items-center rounded-full bg-muted text-muted-foreground">
              <CloudOff className="size-6" aria-hidden="true" />
            </span>
            <div className="flex max-w-xl flex-col gap-1.5">
              <h2 className="text-lg font-semibold">No provider configured</h2>
              <p className="text-muted-foreground">
                External survey offers appear here once a sample provider is connected. Until then there is
                nothing to import, and every other projects screen works as usual.
              </p>
            </div>
            <div className="flex flex-col items-center gap-2 text-sm text-muted-foreground">
              <p>
                An administrator connects a provider with its address and key in the server's environment:
              </p>
              <ul className="flex flex-wrap justify-center gap-1.5">
                {PROVIDERS.map((p) => (
                  <li key={p}>
                    <code className="rounded bg-muted px-1.5 py-0.5 text-xs">PROVIDER_{p}_URL / _KEY</code>
                  </li>
                ))}
              </ul>
            </div>
          </Card>
        )
        : (
          <>
            <FilterToolbar list={list} />
            <DataGrid
              list={list}
              columns={columns}
              caption="Imported projects"
              emptyText="No project imported yet"
            />
          </>
        )}
    </>
  );
}
