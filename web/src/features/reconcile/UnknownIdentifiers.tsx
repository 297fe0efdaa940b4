/**
 * What an upload did not match: the identifiers that name no session of the project, the first
 * hundred listed (an upload's own result carries them) and every one as a CSV download
 * (reconcileUnknownCall, streamed by the server), so a client's file can be checked line by line.
 */
import { useState } from "react";
import { Download } from "lucide-react";
import { download } from "../../lib/api.ts";
import { saveBlob } from "../../lib/download.ts";
import { notify } from "../../lib/notify.ts";
import { Button } from "../../components/ui/button.tsx";
import { reconcileUnknownCall } from "../../../../shared/api/reconcile.ts";
import type { ReconcileSummary } from "./reconcile.ts";

export function UnknownIdentifiers(
  { s, shown }: {
    s: ReconcileSummary; /** The first of them, when known (an upload's result). */
    shown?: string[];
  },
) {
  const [busy, setBusy] = useState(false);
  if (!s.unknown) return null;
  async function save() {
    setBusy(true);
    try {
      const { blob, filename } = await download(reconcileUnknownCall, { params: { id: s._id } });
      saveBlob(blob, filename ?? `${s.projectCode}-unknown-identifiers.csv`);
      notify.success("Export ready");
    } catch {
      // shown by the API client
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="mt-3 flex flex-col gap-2" data-testid="reconcile-unknown">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-medium">
          {s.unknown} unknown {s.unknown === 1 ? "identifier" : "identifiers"} (no session of the project)
          {shown && shown.length < s.unknown ? `, the first ${shown.length} shown` : ""}
        </p>
        <Button variant="outline" size="sm" loading={busy} onClick={() => void save()}>
          <Download /> Download unknown identifiers
        </Button>
      </div>
      {shown?.length
        ? (
          <ul
            className="max-h-48 overflow-auto rounded-md border bg-muted/40 p-2 font-mono text-xs leading-5"
            aria-label="Unknown identifiers"
          >
            {shown.map((id) => <li key={id} className="break-all">{id}</li>)}
          </ul>
        )
        : null}
    </div>
  );
}
