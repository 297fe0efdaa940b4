/** The project row action Progress Image (the E-mail group already has a "Progress Report"): the server's PNG of the project's progress, saved as a file. */
import { ChartNoAxesCombined } from "lucide-react";
import { download } from "../../lib/api.ts";
import { saveBlob } from "../../lib/download.ts";
import { notify } from "../../lib/notify.ts";
import { progressReportCall } from "../../../../shared/api/support.ts";
import type { RowAction } from "../../components/data-grid/types.ts";

export async function downloadProgressReport(p: { _id: string; projectCode: string }) {
  try {
    const { blob, filename } = await download(progressReportCall, { params: { projectId: p._id } });
    saveBlob(blob, filename ?? `${p.projectCode}-progress.png`);
    notify.success("Progress report ready");
  } catch {
    // the API client has shown the reason
  }
}

/** The row action (projects grid and child projects). */
export function progressReportAction<T extends { _id: string; projectCode: string }>(): RowAction<T> {
  return { label: "Progress Image", icon: ChartNoAxesCombined, onSelect: downloadProgressReport };
}
