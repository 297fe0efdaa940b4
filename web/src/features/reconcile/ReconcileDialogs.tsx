/**
 * The two questions of Proceed to Invoice, Archieve and Revoke Project (part 2, 4): first the action
 * itself, then whether to e-mail the mapped suppliers; the answer goes with the call as sendEmail.
 */
import { useState } from "react";
import { api } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { EmailSuppliersQuestion } from "../projects/index.ts";
import { reconcileStatusCall, revokeProjectCall } from "../../../../shared/api/reconcile.ts";

/** The spec's exact confirmation of Undo Reconcile. */
export const UNDO_QUESTION = "Do you sure?";

export type StatusStep = "invoice" | "archive" | "revoke";

const ACTION: Record<StatusStep, string> = {
  invoice: "Proceed to Invoice",
  archive: "Archieve",
  revoke: "Revoke Project",
};
const WHAT: Record<StatusStep, string> = {
  invoice: "moves to Ready To Invoice",
  archive: "moves to Archieved",
  revoke: "comes back to Closed for reconciling again",
};

export function StatusStepDialog({
  step,
  project,
  onClose,
  onDone,
}: {
  step: StatusStep | null;
  project: { _id: string; projectCode: string } | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const [confirmed, setConfirmed] = useState(false);
  const [busy, setBusy] = useState<"yes" | "no" | null>(null);
  const open = !!step && !!project;
  const close = () => {
    setConfirmed(false);
    onClose();
  };
  async function apply(sendEmail: boolean) {
    if (!step || !project) return;
    setBusy(sendEmail ? "yes" : "no");
    try {
      const res = step === "revoke"
        ? await api(revokeProjectCall, { params: { id: project._id }, body: { sendEmail } })
        : await api(reconcileStatusCall, {
          params: { id: project._id },
          body: { projectStatus: step === "invoice" ? 4 : 7, sendEmail },
        });
      notify.success(res.message);
      setConfirmed(false);
      onDone();
    } catch {
      // the API client has shown the reason
    } finally {
      setBusy(null);
    }
  }
  if (!open) return null;
  const action = ACTION[step];
  return (
    <>
      <ConfirmDialog
        open={!confirmed}
        onOpenChange={(o) => !o && close()}
        title="Are you sure?"
        description={`${action}: ${project.projectCode} ${WHAT[step]}.`}
        destructive={step === "revoke"}
        onConfirm={() => setConfirmed(true)}
      />
      <EmailSuppliersQuestion
        project={confirmed ? project : null}
        action={action}
        what={WHAT[step]}
        busy={busy}
        onClose={close}
        onAnswer={(sendEmail) => void apply(sendEmail)}
      />
    </>
  );
}
