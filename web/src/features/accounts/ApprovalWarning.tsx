/**
 * Generate Invoice's check of a line against what the client approved: a project's line whose
 * count differs from the project's accepted count (approved, or staff's admin-approved count) is
 * flagged with the difference before the invoice is saved. Lines typed by hand have nothing to
 * compare with.
 */
import { TriangleAlert } from "lucide-react";
import type { InvoiceProjectOption } from "./accounts.ts";

export type ApprovalGap = { approved: number; billed: number; diff: number };

/** The gap of a line billing `complete` for `projectId`, or null when it bills the approved count. */
export function approvalGap(
  projectId: string | null,
  complete: string,
  options: InvoiceProjectOption[] | undefined,
): ApprovalGap | null {
  const p = projectId ? options?.find((o) => o._id === projectId) : undefined;
  const billed = Number(complete);
  if (!p || complete.trim() === "" || !Number.isFinite(billed) || billed === p.approved) return null;
  return { approved: p.approved, billed, diff: billed - p.approved };
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

export function ApprovalWarning({ gap }: { gap: ApprovalGap | null }) {
  if (!gap) return null;
  return (
    <p
      className="mt-1 flex items-center justify-end gap-1 text-xs text-amber-700"
      data-testid="approval-warning"
      title={`This line bills ${gap.billed} where the client approved ${gap.approved}`}
    >
      <TriangleAlert className="size-3.5 shrink-0" />
      {gap.approved} approved ({signed(gap.diff)})
    </p>
  );
}

/** The form's summary beside Submit: how many lines bill other than the approved count. */
export function ApprovalSummary({ gaps }: { gaps: (ApprovalGap | null)[] }) {
  const off = gaps.filter((g): g is ApprovalGap => g !== null);
  if (!off.length) return null;
  const diff = off.reduce((n, g) => n + g.diff, 0);
  return (
    <p
      role="status"
      className="mr-auto flex items-center gap-1.5 text-sm text-amber-700"
      data-testid="approval-summary"
    >
      <TriangleAlert className="size-4 shrink-0" />
      {off.length === 1 ? "1 line bills" : `${off.length} lines bill`}{" "}
      other than the approved count ({signed(diff)} complete{Math.abs(diff) === 1 ? "" : "s"} in all)
    </p>
  );
}
