/**
 * /admin/support/email (issue 25, Support > E-mail): every mail of the outbox with its state
 * (queued, sending, sent, retrying with its next attempt, failed with the mail server's answer,
 * cancelled), recipient, subject and attempts; its message; resend and cancel.
 */
import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Ban, Eye, RotateCw } from "lucide-react";
import { api } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { formatDateTime } from "../../lib/format.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowAction } from "../../components/data-grid/types.ts";
import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import {
  cancelOutboxMailCall,
  type EmailState,
  emailStateLabel,
  getOutboxMailCall,
  resendOutboxMailCall,
} from "../../../../shared/api/email.ts";
import { EmptyState, ErrorState } from "../../components/display/states.tsx";
import { ViewDialog } from "../../components/dialogs/ViewDialog.tsx";
import { outboxGrid, type OutboxMail, SUPPORT_DESCRIPTION, useSupportTabs } from "./support.ts";

const TONE: Record<EmailState, BadgeTone> = {
  queued: "blue",
  sending: "cyan",
  sent: "green",
  retrying: "amber",
  failed: "red",
  cancelled: "zinc",
};

/** The state, and what comes next: when a retrying mail is tried again, what the server answered. */
function StateCell({ mail }: { mail: OutboxMail }) {
  return (
    <div className="flex flex-col items-start gap-1">
      <Badge tone={TONE[mail.state]}>{emailStateLabel(mail.state)}</Badge>
      {mail.state === "retrying" && mail.nextAttemptAt
        ? (
          <span className="text-xs text-muted-foreground">
            {Date.parse(mail.nextAttemptAt) <= Date.now()
              ? "Next attempt on the next run"
              : `Next attempt ${formatDateTime(mail.nextAttemptAt)}`}
          </span>
        )
        : null}
      {mail.state === "sent" && mail.sentAt
        ? <span className="text-xs text-muted-foreground">{formatDateTime(mail.sentAt)}</span>
        : null}
    </div>
  );
}

export default function EmailOutboxPage() {
  const tabs = useSupportTabs();
  const list = useList<OutboxMail, "state" | "minDate" | "maxDate">(outboxGrid);
  const [viewing, setViewing] = useState<OutboxMail | null>(null);
  const { invalidate } = list;

  const columns = useMemo<GridColumn<OutboxMail>[]>(() => [
    { id: "createdAt", header: "Queued at", cell: (m) => formatDateTime(m.createdAt) },
    { id: "toAddress", header: "To", cell: (m) => m.toAddress },
    {
      id: "subject",
      header: "Subject",
      className: "min-w-56",
      cell: (m) => (
        <div className="flex flex-col">
          <span>{m.subject}</span>
          <span className="text-xs text-muted-foreground">{m.module}</span>
        </div>
      ),
    },
    { id: "state", header: "State", cell: (m) => <StateCell mail={m} /> },
    { id: "attempts", header: "Attempts", align: "right", cell: (m) => m.attempts },
    {
      id: "lastError",
      header: "Server's answer",
      className: "max-w-72 break-words text-xs",
      cell: (m) =>
        m.lastError
          ? <span className={m.state === "failed" ? "text-destructive" : undefined}>{m.lastError}</span>
          : <span className="text-muted-foreground">–</span>,
    },
  ], []);

  const actions = useMemo<RowAction<OutboxMail>[]>(() => [
    { label: "View message", icon: Eye, onSelect: (m) => setViewing(m) },
    {
      label: "Resend",
      icon: RotateCw,
      hidden: (m) => m.state === "queued" || m.state === "sending",
      confirm: {
        title: "Send this e-mail again?",
        description: (m: OutboxMail) =>
          m.state === "sent"
            ? `A copy of "${m.subject}" is queued for ${m.toAddress}.`
            : `"${m.subject}" is queued again for ${m.toAddress}.`,
        confirmLabel: "Resend",
      },
      onSelect: async (m) => {
        const res = await api(resendOutboxMailCall, { params: { id: m._id } });
        notify.success(res.message);
        await invalidate();
      },
    },
    {
      label: "Cancel",
      icon: Ban,
      destructive: true,
      hidden: (m) => m.state === "sent" || m.state === "sending" || m.state === "cancelled",
      confirm: {
        title: "Cancel this e-mail?",
        description: (m: OutboxMail) => `"${m.subject}" to ${m.toAddress} will not be sent.`,
        confirmLabel: "Cancel e-mail",
        cancelLabel: "Keep it",
      },
      onSelect: async (m) => {
        const res = await api(cancelOutboxMailCall, { params: { id: m._id } });
        notify.success(res.message);
        await invalidate();
      },
    },
  ], [invalidate]);

  return (
    <>
      <PageHeader title="Support" description={SUPPORT_DESCRIPTION} tabs={tabs} />
      <FilterToolbar list={list} />
      <DataGrid
        list={list}
        columns={columns}
        rowActions={actions}
        caption="E-mail outbox"
        emptyText="No e-mail queued yet."
      />
      <MessageDialog mail={viewing} onClose={() => setViewing(null)} />
    </>
  );
}

/** The message as it is sent: the HTML part in a sandboxed frame (no scripts), the text part, the files. */
function MessageDialog({ mail, onClose }: { mail: OutboxMail | null; onClose: () => void }) {
  return (
    <ViewDialog
      row={mail}
      onClose={onClose}
      className="max-w-3xl"
      title={(mail) => mail.subject ?? "E-mail"}
      description={(mail) => `To ${mail.toAddress} · ${emailStateLabel(mail.state)}`}
    >
      {(mail) => <Message mail={mail} />}
    </ViewDialog>
  );
}

function Message({ mail }: { mail: OutboxMail }) {
  const message = useQuery({
    queryKey: ["email-outbox-message", mail._id],
    staleTime: 0,
    queryFn: async ({ signal }) =>
      (await api(getOutboxMailCall, { params: { id: mail._id } }, { signal })).result,
  });
  return (
    <>
      {message.isPending
        ? <Skeleton className="h-64 w-full" aria-label="Loading the message" />
        : message.isError
        ? <ErrorState what="the message" error={message.error} onRetry={() => void message.refetch()} />
        : (
          <div className="flex flex-col gap-4">
            {message.data.lastError
              ? (
                <p className="rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-700">
                  Mail server's answer: {message.data.lastError}
                </p>
              )
              : null}
            <section aria-label="HTML part" className="flex flex-col gap-1">
              <h3 className="text-sm font-medium">Message</h3>
              <iframe
                title="The message as sent"
                sandbox=""
                srcDoc={message.data.bodyHtml}
                className="h-64 w-full rounded-md border bg-white"
              />
            </section>
            <section aria-label="Text part" className="flex flex-col gap-1">
              <h3 className="text-sm font-medium">Text part</h3>
              {message.data.bodyText
                ? (
                  <pre className="max-h-48 overflow-auto whitespace-pre-wrap rounded-md border bg-muted/40 p-2 text-xs">
                    {message.data.bodyText}
                  </pre>
                )
                : <EmptyState text="No text part" />}
            </section>
            {message.data.attachments.length
              ? (
                <p className="text-sm">
                  Attached: {message.data.attachments.map((a) => a.filename).join(", ")}
                </p>
              )
              : null}
          </div>
        )}
    </>
  );
}
