/**
 * Send Bulk Email for projects: one message to the suppliers mapped to each project given (POST
 * /admin/email/send per project). The row action sends for one project, the selection drawer for
 * its child projects.
 */
import { Mail } from "lucide-react";
import { EmailForm } from "../../../../shared/schemas/project.ts";
import { sendProjectEmailCall } from "../../../../shared/api/project-reports.ts";
import { api } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { SubmitButton } from "../../components/form/fields.tsx";
import { RichTextField } from "../../components/form/rich-text-field.tsx";
import { Button } from "../../components/ui/button.tsx";
import {
  DialogClose,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import { RowDialog } from "../../components/dialogs/RowDialog.tsx";
import type { ProjectRow } from "./projects.ts";

const EMPTY_EMAIL = { type: "project", projectId: "", emailBody: "" };

/**
 * One message to the suppliers mapped to each project given (POST /admin/email/send per project).
 * Used by the row action (one project) and the selection drawer (its child projects).
 */
export function ProjectEmailDialog({
  projects,
  title = "Send Bulk Email",
  onClose,
  onSent,
}: {
  projects: Pick<ProjectRow, "_id" | "projectCode" | "projectName">[];
  title?: string;
  onClose: () => void;
  onSent?: () => void;
}) {
  return (
    <RowDialog
      row={projects.length > 0 ? projects : null}
      onClose={onClose}
      className="max-w-2xl"
      keepOnOutsideClick
    >
      {(list) => (
        <EmailFormBody
          projects={list}
          title={title}
          onSent={() => {
            onClose();
            onSent?.();
          }}
        />
      )}
    </RowDialog>
  );
}

function EmailFormBody({
  projects,
  title,
  onSent,
}: {
  projects: Pick<ProjectRow, "_id" | "projectCode" | "projectName">[];
  title: string;
  onSent: () => void;
}) {
  const form = useSchemaForm(EmailForm, EMPTY_EMAIL);
  async function submit(values: { emailBody: string }) {
    const body = (p: { _id: string }) => ({ type: "project", projectId: p._id, emailBody: values.emailBody });
    if (projects.length === 1) {
      const res = await api(sendProjectEmailCall, { body: body(projects[0]) });
      notify.success(res.message);
      onSent();
      return;
    }
    // several projects: each gets its own message; one without recipients does not stop the others
    let queued = 0;
    const failed: string[] = [];
    for (const p of projects) {
      try {
        const res = await api(sendProjectEmailCall, { body: body(p) }, { quiet: true });
        queued += res.result?.queued ?? 0;
      } catch (e) {
        failed.push(`${p.projectCode} (${e instanceof Error ? e.message : "failed"})`);
      }
    }
    const sent = projects.length - failed.length;
    if (sent === 0) {
      notify.error(`No e-mail sent: ${failed.join("; ")}`);
      return;
    }
    const summary = `${queued} e-mail${queued === 1 ? "" : "s"} queued for ${sent} project${
      sent === 1 ? "" : "s"
    }`;
    if (failed.length) notify.warning(`${summary}; not sent for ${failed.join("; ")}`);
    else notify.success(summary);
    onSent();
  }
  const one = projects.length === 1 ? projects[0] : null;
  return (
    <Form form={form} onSubmit={submit} className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>
          {one
            ? `${one.projectCode} · ${one.projectName}: goes to every supplier mapped to the project.`
            : `Goes to the suppliers mapped to each of ${projects.length} projects: ${
              projects.map((p) => p.projectCode).join(", ")
            }.`}
        </DialogDescription>
      </DialogHeader>
      <RichTextField
        name="emailBody"
        label="Body"
        required
        minHeight={220}
        placeholder="Write your message…"
      />
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">Cancel</Button>
        </DialogClose>
        <SubmitButton>
          <Mail /> Send
        </SubmitButton>
      </DialogFooter>
    </Form>
  );
}
