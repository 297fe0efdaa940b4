/**
 * A supplier's API keys (issue 23), for staff on the supplier's edit page and for the supplier's own
 * users on the portal's API page: the keys (name, prefix, created, last used, expires, state), Create
 * (the key shown once, with Copy and a warning that it will not be shown again), Rename and Revoke
 * (confirmed). The two screens differ only in the calls they make (`ApiKeyCalls`).
 */
import * as React from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound, Plus, TriangleAlert } from "lucide-react";
import {
  API_KEY_HEADER,
  ApiKeyCreate,
  ApiKeyRename,
  type ApiKeyState,
  type CreatedSupplierApiKey,
  type SupplierApiKey,
} from "../../../../shared/api/supplier-api-keys.ts";
import { StaticTable } from "../../components/table/StaticTable.tsx";
import { RowDialog } from "../../components/dialogs/RowDialog.tsx";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { SubmitButton, TextField } from "../../components/form/fields.tsx";
import { DateField } from "../../components/form/date-field.tsx";
import { CopyField, LoadFailed } from "../../components/form/FormParts.tsx";
import { Badge, type BadgeTone } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import {
  DialogClose,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import type { Envelope } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { formatDate, formatDateTime } from "../../lib/format.ts";

/** The calls behind the panel: the staff's (a supplier by id) or the portal's (the user's own). */
export type ApiKeyCalls = {
  /** The query cache key of the list. */
  key: readonly unknown[];
  list: () => Promise<Envelope<SupplierApiKey[]>>;
  create: (body: ApiKeyCreate) => Promise<Envelope<CreatedSupplierApiKey>>;
  rename: (keyId: string, body: ApiKeyRename) => Promise<Envelope<SupplierApiKey>>;
  revoke: (keyId: string) => Promise<Envelope<SupplierApiKey>>;
};

const STATE: Record<ApiKeyState, { label: string; tone: BadgeTone }> = {
  active: { label: "Active", tone: "green" },
  expired: { label: "Expired", tone: "amber" },
  revoked: { label: "Revoked", tone: "zinc" },
};

type Dialog =
  | { kind: "create" }
  | { kind: "created"; key: CreatedSupplierApiKey }
  | { kind: "rename"; key: SupplierApiKey }
  | { kind: "revoke"; key: SupplierApiKey };

export function ApiKeysPanel({ calls, className }: { calls: ApiKeyCalls; className?: string }) {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: calls.key, queryFn: async () => (await calls.list()).result });
  const [dialog, setDialog] = React.useState<Dialog | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: calls.key });

  return (
    <Card className={className} data-testid="api-keys">
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="flex flex-col gap-1">
          <CardTitle>API keys</CardTitle>
          <CardDescription>
            A panel sends one of these keys in the{" "}
            <code className="rounded bg-muted px-1">{API_KEY_HEADER}</code>{" "}
            header to the supply API (<code className="rounded bg-muted px-1">/supply/v1</code>). Several keys
            may be active at once: create the new key, switch over, then revoke the old one.
          </CardDescription>
        </div>
        <Button type="button" onClick={() => setDialog({ kind: "create" })}>
          <Plus /> Create key
        </Button>
      </CardHeader>
      <CardContent>
        {query.isPending
          ? <Skeleton className="h-24 w-full" aria-label="Loading API keys" />
          : query.isError
          ? <LoadFailed what="list of API keys" error={query.error} onRetry={() => void query.refetch()} />
          : (
            <StaticTable
              caption="API keys"
              rows={query.data}
              rowKey={(k) => k._id}
              rowTestId="api-key-row"
              empty={<span className="text-muted-foreground">No API keys yet.</span>}
              columns={[
                { header: "Name", cell: (k) => k.name, className: "font-medium" },
                { header: "Key", cell: (k) => <code className="text-xs">{k.prefix}…</code> },
                {
                  header: "Created",
                  cell: (k) => (
                    <span title={k.createdBy ? `by ${k.createdBy}` : undefined}>
                      {formatDate(k.createdAt)}
                    </span>
                  ),
                },
                { header: "Last used", cell: (k) => (k.lastUsedAt ? formatDateTime(k.lastUsedAt) : "Never") },
                { header: "Expires", cell: (k) => (k.expiresAt ? formatDateTime(k.expiresAt) : "Never") },
                {
                  header: "State",
                  cell: (k) => <Badge tone={STATE[k.state].tone}>{STATE[k.state].label}</Badge>,
                },
                {
                  header: <span className="sr-only">Actions</span>,
                  align: "right",
                  cell: (k) => (
                    <div className="flex justify-end gap-2">
                      <Button
                        type="button"
                        size="sm"
                        variant="outline"
                        onClick={() => setDialog({ kind: "rename", key: k })}
                      >
                        Rename
                      </Button>
                      <Button
                        type="button"
                        size="sm"
                        variant="outline"
                        disabled={k.state === "revoked"}
                        onClick={() => setDialog({ kind: "revoke", key: k })}
                      >
                        Revoke
                      </Button>
                    </div>
                  ),
                },
              ]}
            />
          )}
      </CardContent>

      <RowDialog
        row={dialog}
        onClose={() => setDialog(null)}
        keepOnOutsideClick
        className="max-w-lg"
      >
        {(d) =>
          d.kind === "create"
            ? (
              <CreateKeyForm
                calls={calls}
                onCreated={(key) => {
                  void refresh();
                  setDialog({ kind: "created", key });
                }}
              />
            )
            : d.kind === "created"
            ? <NewKey created={d.key} />
            : d.kind === "rename"
            ? (
              <RenameKeyForm
                calls={calls}
                apiKey={d.key}
                onDone={() => {
                  void refresh();
                  setDialog(null);
                }}
              />
            )
            : (
              <RevokeKey
                calls={calls}
                apiKey={d.key}
                onDone={() => {
                  void refresh();
                  setDialog(null);
                }}
              />
            )}
      </RowDialog>
    </Card>
  );
}

function CreateKeyForm(
  { calls, onCreated }: { calls: ApiKeyCalls; onCreated: (key: CreatedSupplierApiKey) => void },
) {
  const form = useSchemaForm(ApiKeyCreate, { name: "", expiresOn: "" });
  return (
    <Form
      form={form}
      className="grid gap-4"
      onSubmit={async (values) => onCreated((await calls.create(values)).result)}
    >
      <DialogHeader>
        <DialogTitle>Create API key</DialogTitle>
        <DialogDescription>The key is shown once, when it is created.</DialogDescription>
      </DialogHeader>
      <TextField name="name" label="Name" required autoComplete="off" placeholder="Production" autoFocus />
      <DateField
        name="expiresOn"
        label="Expires on"
        min={new Date().toISOString().slice(0, 10)}
        hint="The last day the key works (UTC). Leave empty for a key that does not expire."
      />
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">Cancel</Button>
        </DialogClose>
        <SubmitButton>Create key</SubmitButton>
      </DialogFooter>
    </Form>
  );
}

function NewKey({ created }: { created: CreatedSupplierApiKey }) {
  return (
    <div className="grid gap-4">
      <DialogHeader>
        <DialogTitle className="flex items-center gap-2">
          <KeyRound className="size-4" aria-hidden="true" /> {created.name}
        </DialogTitle>
        <DialogDescription>
          Send it in the {API_KEY_HEADER} header of every supply API call.
        </DialogDescription>
      </DialogHeader>
      <div
        className="flex gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        role="alert"
      >
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        Copy this key now: it will not be shown again. Only its first characters ({created.prefix}…) are kept
        to recognise it.
      </div>
      <CopyField label="API key" value={created.key} />
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button">Done</Button>
        </DialogClose>
      </DialogFooter>
    </div>
  );
}

function RenameKeyForm(
  { calls, apiKey, onDone }: { calls: ApiKeyCalls; apiKey: SupplierApiKey; onDone: () => void },
) {
  const form = useSchemaForm(ApiKeyRename, { name: apiKey.name });
  return (
    <Form
      form={form}
      className="grid gap-4"
      onSubmit={async (values) => {
        const r = await calls.rename(apiKey._id, values);
        notify.success(r.message);
        onDone();
      }}
    >
      <DialogHeader>
        <DialogTitle>Rename API key</DialogTitle>
        <DialogDescription>{apiKey.prefix}…</DialogDescription>
      </DialogHeader>
      <TextField name="name" label="Name" required autoComplete="off" autoFocus />
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">Cancel</Button>
        </DialogClose>
        <SubmitButton>Save</SubmitButton>
      </DialogFooter>
    </Form>
  );
}

function RevokeKey(
  { calls, apiKey, onDone }: { calls: ApiKeyCalls; apiKey: SupplierApiKey; onDone: () => void },
) {
  const revoke = useMutation({
    mutationFn: () => calls.revoke(apiKey._id),
    onSuccess: (r) => {
      notify.success(r.message);
      onDone();
    },
  });
  return (
    <div className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Revoke “{apiKey.name}”?</DialogTitle>
        <DialogDescription>
          Calls with the key {apiKey.prefix}… are refused from now on. This cannot be undone.
        </DialogDescription>
      </DialogHeader>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline" disabled={revoke.isPending}>Cancel</Button>
        </DialogClose>
        <Button
          type="button"
          variant="destructive"
          loading={revoke.isPending}
          onClick={() => revoke.mutate()}
        >
          Revoke key
        </Button>
      </DialogFooter>
    </div>
  );
}
