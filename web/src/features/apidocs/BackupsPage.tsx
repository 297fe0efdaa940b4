/**
 * /admin/support/backups (SUPPORT_LOG roles): the scheduled backups (BACKUP_DIR, BACKUP_EVERY_HOURS,
 * BACKUP_KEEP) with their times and sizes, newest first. Backups are made and restored with the CLI
 * (`deno task cli db backup`, `db restore`); this page only shows them.
 */
import { useQuery } from "@tanstack/react-query";
import { listBackupsCall } from "../../../../shared/api/ops.ts";
import { api, callKey } from "../../lib/api.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { StaticTable, TABLE_LOOKS } from "../../components/table/StaticTable.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";

export function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

export default function BackupsPage() {
  const q = useQuery({
    queryKey: callKey(listBackupsCall),
    queryFn: async ({ signal }) => (await api(listBackupsCall, {}, { signal })).result,
  });
  const data = q.data;
  return (
    <>
      <PageHeader
        title="Backups"
        description={data?.dir
          ? `Written to ${data.dir}${
            data.everyHours ? ` every ${data.everyHours} hour${data.everyHours === 1 ? "" : "s"}` : ""
          }; the newest ${data.keep} are kept.`
          : "Snapshots of the database, made while Samplex keeps serving."}
      />
      {q.isPending ? <Skeleton className="h-40 w-full" /> : null}
      {q.isError ? <p className="text-destructive">The backups could not be listed.</p> : null}
      {data?.note
        ? <p className="mb-4 text-muted-foreground" data-testid="backups-note">{data.note}</p>
        : null}
      {data && data.backups.length
        ? (
          <Card>
            <CardContent className="p-0">
              <StaticTable
                data-testid="backups-table"
                look={TABLE_LOOKS.lined}
                rows={data.backups}
                rowKey={(b) => b.name}
                columns={[
                  { header: "File", cell: (b) => b.name, className: "font-mono" },
                  { header: "Taken", cell: (b) => new Date(b.createdAt).toLocaleString() },
                  { header: "Size", cell: (b) => sizeOf(b.bytes), numeric: true },
                ]}
              />
            </CardContent>
          </Card>
        )
        : data && data.dir
        ? <p className="text-muted-foreground">No backup yet.</p>
        : null}
      <p className="mt-4 text-sm text-muted-foreground">
        Restore one with <code>deno task cli db restore FILE</code> while the server is stopped.
      </p>
    </>
  );
}
