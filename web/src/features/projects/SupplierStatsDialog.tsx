/**
 * Supplier Stats (part 1, 2.6): a bar chart of Completes, Terminates and Over Quota per supplier
 * (POST /admin/project/supplier/stat/:projectId), with the same figures as a table beneath.
 */
import * as React from "react";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api.ts";
import { supplierStatsCall } from "../../../../shared/api/supplier-maps.ts";
import { formatCount } from "../../lib/format.ts";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { ViewDialog } from "../../components/dialogs/ViewDialog.tsx";
import type { ProjectRow } from "./projects.ts";
import { subtitle } from "./parts.tsx";
import { EmptyState, ErrorState } from "../../components/display/states.tsx";
import { StaticTable } from "../../components/table/StaticTable.tsx";

const SupplierStatsChart = React.lazy(() => import("./SupplierStatsChart.tsx"));

export function SupplierStatsDialog(
  { project, onClose }: { project: ProjectRow | null; onClose: () => void },
) {
  return (
    <ViewDialog
      row={project}
      onClose={onClose}
      className="max-w-3xl"
      bodyClassName="flex flex-col gap-4"
      title="Supplier Stats"
      description={(p) => `${subtitle(p)}: outcomes per supplier.`}
    >
      {(p) => <SupplierStats project={p} />}
    </ViewDialog>
  );
}

function SupplierStats({ project }: { project: ProjectRow }) {
  const stats = useQuery({
    queryKey: ["supplier-stats", project._id],
    staleTime: 0,
    queryFn: async ({ signal }) =>
      (await api(supplierStatsCall, { params: { projectId: project._id } }, { signal })).result,
  });
  return (
    <>
      {stats.isPending
        ? <Skeleton className="h-72 w-full" aria-label="Loading supplier stats" />
        : stats.isError
        ? <ErrorState what="supplier stats" error={stats.error} onRetry={() => void stats.refetch()} />
        : stats.data.length === 0
        ? <EmptyState text="No suppliers mapped yet" />
        : (
          <>
            <React.Suspense fallback={<Skeleton className="h-72 w-full" aria-label="Loading chart" />}>
              <SupplierStatsChart stats={stats.data} />
            </React.Suspense>
            <StaticTable
              caption="Outcomes per supplier"
              rows={stats.data}
              rowKey={(s) => s.supplierId}
              columns={[
                { header: "Supplier", cell: (s) => s.supplierName, className: "font-medium" },
                { header: "Completes", cell: (s) => formatCount(s.complete), numeric: true },
                { header: "Terminates", cell: (s) => formatCount(s.terminate), numeric: true },
                { header: "Over Quota", cell: (s) => formatCount(s.overQuota), numeric: true },
                { header: "Clicked", cell: (s) => formatCount(s.clicked), numeric: true },
              ]}
            />
          </>
        )}
    </>
  );
}
