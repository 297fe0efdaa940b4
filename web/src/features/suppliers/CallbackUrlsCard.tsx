/**
 * The portal's callback URLs (issue 23, item 3): the supplier sets where Samplex calls it at each
 * outcome and reconcile change. Saved through PUT /supplier/callback-urls, which validates each URL
 * (http or https, bounded) and checks it against the outbound policy (no internal address).
 */
import * as React from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { SubmitButton, TextField } from "../../components/form/fields.tsx";
import { CopyField, LoadFailed } from "../../components/form/FormParts.tsx";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { api, callKey } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { CallbackUrlsForm } from "../../../../shared/schemas/supplier.ts";
import { SIGNATURE_HEADER } from "../../../../shared/callbacks.ts";
import {
  type CallbackUrls,
  portalCallbackUrlsCall,
  revealPortalCallbackSecretCall,
  rotatePortalCallbackSecretCall,
  updatePortalCallbackUrlsCall,
} from "../../../../shared/api/supplier-callbacks.ts";

/** The fields, in the order of a respondent's outcomes, with what each is for. */
export const CALLBACK_URL_FIELDS = [
  { name: "supplierApprovedHook", label: "Complete", hint: "Also called when a complete is approved." },
  { name: "callbackTerminate", label: "Terminate", hint: "Terminated, also at the pre-screen." },
  { name: "callbackOverQuota", label: "Over quota", hint: "A full quota or sample." },
  { name: "callbackQualityTerm", label: "Quality term", hint: "Failed a quality or security check." },
  {
    name: "callbackReconcile",
    label: "Reconcile change",
    hint: "A complete rejected by a reconcile, and back when it is undone: [oldStatus], [newStatus], [cpi].",
  },
] as const;

const KEY = callKey(portalCallbackUrlsCall);

export function CallbackUrlsCard({ className }: { className?: string }) {
  const query = useQuery({ queryKey: KEY, queryFn: async () => (await api(portalCallbackUrlsCall)).result });
  return (
    <Card className={className} data-testid="callback-urls">
      <CardHeader>
        <CardTitle>Callback URLs</CardTitle>
        <CardDescription>
          Where we call your server at each outcome. Variables: <code>[sid]</code> (your member id),{" "}
          <code>[uid]</code>, <code>[pid]</code>, <code>[status]</code>, <code>[key]</code>,{" "}
          <code>[event]</code>. Leave a URL empty for no callback.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending
          ? <Skeleton className="h-48 w-full" aria-label="Loading callback URLs" />
          : query.isError
          ? <LoadFailed what="callback URLs" error={query.error} onRetry={() => void query.refetch()} />
          : (
            <div className="grid gap-6">
              <SigningSecret masked={query.data.hashKey} />
              <UrlsForm urls={query.data} />
            </div>
          )}
      </CardContent>
    </Card>
  );
}

/**
 * The supplier's signing secret: shown masked, copied whole (a logged reveal), rotated after a
 * confirm (the new one shown).
 */
function SigningSecret({ masked }: { masked: string }) {
  const [shown, setShown] = React.useState(masked);
  const [asking, setAsking] = React.useState(false);
  const [busy, setBusy] = React.useState(false);
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-end" data-testid="signing-secret">
      <CopyField
        label="Signing secret"
        value={shown}
        resolve={async () => (await api(revealPortalCallbackSecretCall)).result.hashKey}
        className="flex-1"
        hint={
          <>
            Verify each callback's <code>{SIGNATURE_HEADER}</code>{" "}
            header with it: HMAC-SHA256 of the timestamp, method, path and query, idempotency key and body
            hash, one per line.
          </>
        }
      />
      <Button type="button" variant="outline" onClick={() => setAsking(true)}>
        <RefreshCw /> Rotate
      </Button>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title="Rotate the signing secret?"
        description="Callbacks are signed with the new secret at once: update your receiver right after."
        confirmLabel="Rotate"
        busy={busy}
        onConfirm={async () => {
          setBusy(true);
          try {
            const res = await api(rotatePortalCallbackSecretCall);
            setShown(res.result.hashKey);
            notify.success(res.message);
            setAsking(false);
          } finally {
            setBusy(false);
          }
        }}
      />
    </div>
  );
}

function UrlsForm({ urls }: { urls: CallbackUrls }) {
  const qc = useQueryClient();
  const { approvedHookRefusal: _r, hashKey: _k, ...values } = urls;
  const form = useSchemaForm(CallbackUrlsForm, values);
  return (
    <Form
      form={form}
      className="grid gap-4"
      onSubmit={async (body) => {
        const res = await api(updatePortalCallbackUrlsCall, { body });
        qc.setQueryData(KEY, res.result);
        notify.success(res.message);
      }}
    >
      {CALLBACK_URL_FIELDS.map((f) => (
        <TextField
          key={f.name}
          name={f.name}
          label={f.label}
          type="url"
          placeholder="https://"
          autoComplete="off"
          spellCheck={false}
          hint={f.hint}
        />
      ))}
      {urls.approvedHookRefusal
        ? (
          <p className="text-sm text-destructive" role="status">
            The complete URL was refused: {urls.approvedHookRefusal}
          </p>
        )
        : null}
      <div className="flex justify-end">
        <SubmitButton>Save callback URLs</SubmitButton>
      </div>
    </Form>
  );
}
