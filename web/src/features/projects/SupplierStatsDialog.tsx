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
import { SimpleTable } from "../../components/table/SimpleTable.tsx";

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
            <SimpleTable
              caption="Outcomes per supplier"
              head={
                <>
                  <th>Supplier</th>
                  <th className="text-right">Completes</th>
                  <th className="text-right">Terminates</th>
                  <th className="text-right">Over Quota</th>
                  <th className="text-right">Clicked</th>
                </>
              }
            >
              {stats.data.map((s) => (
                <tr key={s.supplierId}>
                  <td className="font-medium">{s.supplierName}</td>
                  <td className="text-right tabular-nums">{formatCount(s.complete)}</td>
                  <td className="text-right tabular-nums">{formatCount(s.terminate)}</td>
                  <td className="text-right tabular-nums">{formatCount(s.overQuota)}</td>
                  <td className="text-right tabular-nums">{formatCount(s.clicked)}</td>
                </tr>
              ))}
            </SimpleTable>
          </>
        )}
    </>
  );
}
