/**
 * Redirects (part 1, 2.6): the grid of links (label, url) the client's survey sends respondents
 * back on, as the server builds them with the router's own builder (GET /admin/project/:id). A
 * secured project (Secured Url on) signs each return: the dialog says how, and shows the signing
 * key of each child project, masked (last 4 characters), to those who may edit projects. As on the
 * client and supplier screens, "Show keys" or Copy fetches one child's key whole through its own
 * call (POST /admin/project/:id/signing-key), which the server writes to the system log.
 */
import * as React from "react";
import { useQuery } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import type { FieldValues } from "react-hook-form";
import { api } from "../../lib/api.ts";
import { getProjectCall, revealSigningKeyCall } from "../../../../shared/api/projects.ts";
import { Badge } from "../../components/ui/badge.tsx";
import { projectKey, type ProjectRecord, type ProjectRow, type SigningKey } from "./projects.ts";
import { CopyButton } from "../../components/display/CopyButton.tsx";
import { ErrorState, LoadingRows } from "../../components/display/states.tsx";
import { StaticTable } from "../../components/table/StaticTable.tsx";
import { subtitle } from "./parts.tsx";
import { ViewDialog } from "../../components/dialogs/ViewDialog.tsx";
import { CopyField } from "../../components/form/FormParts.tsx";
import { ShowKeysButton, useSecretKeys } from "../../components/form/secret-keys.tsx";

export function RedirectsDialog({ project, onClose }: { project: ProjectRow | null; onClose: () => void }) {
  return (
    <ViewDialog
      row={project}
      onClose={onClose}
      className="max-w-3xl"
      title="Redirects"
      description={(project) =>
        `${
          subtitle(project)
        }: the links the client's survey sends respondents back on. The client fills in [uid]${
          project.isDynamicThanksUrl ? " and, with Secured Url on, the signature [sig]" : ""
        }.`}
    >
      {(project) => <Redirects project={project} />}
    </ViewDialog>
  );
}

function Redirects({ project }: { project: ProjectRow }) {
  const record = useQuery({
    queryKey: projectKey(project._id),
    staleTime: 0,
    queryFn: async ({ signal }) =>
      (await api(getProjectCall, { params: { id: project._id } }, { signal })).result,
  });
  const p = record.data;
  return (
    <>
      {record.isPending
        ? <LoadingRows label="Loading redirects" rows={5} />
        : record.isError || !p?.redirects
        ? (
          <ErrorState
            what="redirects"
            error={record.error ?? new Error("No links in the answer")}
            onRetry={() => void record.refetch()}
          />
        )
        : (
          <div className="flex flex-col gap-4">
            <StaticTable
              caption="Client return links"
              rows={p.redirects}
              rowKey={(l) => l.label}
              rowTestId="redirect-row"
              columns={[
                { header: "Label", cell: (l) => l.label, className: "whitespace-nowrap font-medium" },
                { header: "Url", cell: (l) => <code className="break-all text-xs">{l.url}</code> },
                {
                  header: null,
                  headerClassName: "w-10",
                  cell: (l) => <CopyButton text={l.url} label={`${l.label} link`} />,
                },
              ]}
            />
            <Signing signing={p.signing} />
          </div>
        )}
    </>
  );
}

function Signing({ signing }: { signing: ProjectRecord["signing"] }) {
  const secured = signing.keys.filter((k) => k.secured);
  if (!signing.required && secured.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        Secured Url is off: returns are taken without a signature.
      </p>
    );
  }
  return (
    <section
      aria-labelledby="signing-title"
      className="flex flex-col gap-3 rounded-lg border bg-muted/30 p-4"
      data-testid="signing"
    >
      <h3 id="signing-title" className="flex items-center gap-2 font-medium">
        <ShieldCheck className="size-4 text-primary" aria-hidden="true" /> Signed returns
      </h3>
      <p className="text-sm">
        Returns without a valid signature are refused: {signing.method}. For example, the complete of uid{" "}
        <code className="text-xs">65f0c2…e1a2</code> is signed over the text{" "}
        <code className="text-xs">65f0c2…e1a2c</code>.
      </p>
      {signing.keys.length
        ? (
          <ul className="flex flex-col gap-2">
            {signing.keys.map((k) => (
              <li
                key={k.projectId}
                className="flex flex-wrap items-center gap-2 text-sm"
                data-testid="signing-row"
              >
                <span className="font-medium">{k.projectCode}</span>
                {k.secured ? <Badge tone="green">Secured</Badge> : <Badge tone="zinc">Not secured</Badge>}
                {k.secured && k.key
                  ? <MaskedKey signingKey={k} />
                  : k.secured
                  ? <span className="text-muted-foreground">Key shown to project editors</span>
                  : null}
              </li>
            ))}
          </ul>
        )
        : <p className="text-sm text-muted-foreground">No child projects yet: each child has its own key.</p>}
    </section>
  );
}

/**
 * One child's signing key as the record shows it (masked), with the reveal of the client and supplier
 * screens: "Show keys" fetches it whole (logged), and Copy copies the whole key.
 */
function MaskedKey({ signingKey: k }: { signingKey: SigningKey }) {
  const fetchKeys = React.useMemo(
    () => async () => {
      const { key } = (await api(revealSigningKeyCall, { params: { id: k.projectId } })).result;
      return { key };
    },
    [k.projectId],
  );
  const secret = useSecretKeys<{ key: string }, FieldValues>({
    roles: revealSigningKeyCall.roles,
    fetchKeys,
  });
  return (
    <div className="flex w-full flex-col gap-2" data-testid="signing-key">
      <ShowKeysButton secret={secret} />
      <CopyField
        label={`Signing key of ${k.projectCode}`}
        value={secret.keys?.key ?? k.key ?? ""}
        resolve={secret.allowed ? async () => (await secret.reveal())?.key ?? null : undefined}
      />
    </div>
  );
}
