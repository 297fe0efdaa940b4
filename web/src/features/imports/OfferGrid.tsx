/**
 * What the provider tabs and Projects External share: an offer's columns (with its quota and
 * qualification dialogs) and the add-as-project confirmation ('This action will create a new
 * project', with the client the project is for).
 */
import { useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { FolderPlus } from "lucide-react";
import { api, callKey } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { formatMoney, isoDayToDisplay } from "../../lib/format.ts";
import type { GridColumn, RowAction } from "../../components/data-grid/types.ts";
import { Button } from "../../components/ui/button.tsx";
import { Select } from "../../components/ui/select.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { clientOptionsCall } from "../../../../shared/api/clients.ts";
import type { ImportResult } from "../../../../shared/api/providers.ts";
import { PROVIDER_NAMES } from "../../../../shared/schemas/providers.ts";
import type { ExternalOffer } from "./imports.ts";
import { QualificationsDialog, QuotasDialog } from "./OfferDialogs.tsx";

/** The offer grid's columns, row action and dialogs; `external`: Projects External (every provider). */
export function useOfferGrid(opts: {
  external?: boolean;
  /** The client the add dialog starts with (Projects External's clientdiy filter). */
  defaultClientId?: string;
  add: (offer: ExternalOffer, clientId: string) => Promise<ImportResult & { message: string }>;
  onAdded: () => void;
}) {
  const { external = false } = opts;
  const navigate = useNavigate();
  const [quotas, setQuotas] = useState<ExternalOffer | null>(null);
  const [quals, setQuals] = useState<ExternalOffer | null>(null);
  const [adding, setAdding] = useState<ExternalOffer | null>(null);
  const [clientId, setClientId] = useState("");
  const [busy, setBusy] = useState(false);
  const clients = useQuery({
    queryKey: callKey(clientOptionsCall, ""),
    enabled: !!adding,
    queryFn: async () => (await api(clientOptionsCall, { query: {} })).result,
  });

  const columns = useMemo<GridColumn<ExternalOffer>[]>(() => [
    ...(external
      ? [{
        id: "provider",
        header: "Provider",
        cell: (o: ExternalOffer) => PROVIDER_NAMES[o.provider],
      }]
      : []),
    {
      id: "title",
      header: "Title",
      className: "min-w-56",
      cell: (o) => (
        <div className="flex flex-col">
          <span className="font-medium">{o.title}</span>
          <span className="text-xs text-muted-foreground">
            ({o.surveyId}){o.sandbox ? " · Sandbox" : ""}
            {o.imported ? ` · imported as ${o.imported.projectCode}` : ""}
          </span>
        </div>
      ),
    },
    // the title shows the id; these three are in the column chooser so the dialogs' columns fit 1440 px
    { id: "surveyId", header: "ID", hidden: true, cell: (o) => o.surveyId },
    { id: "countryCode", header: "Country", cell: (o) => o.countryCode },
    {
      id: "remaining",
      header: "Requirement",
      align: "right",
      cell: (o) => `${o.totalCompletes} (${o.remaining})`,
    },
    {
      id: "currentCompletes",
      header: "Current completes",
      hidden: true,
      align: "right",
      cell: (o) => o.currentCompletes,
    },
    { id: "ir", header: "IR", align: "right", cell: (o) => o.ir },
    { id: "loi", header: "LOI", align: "right", cell: (o) => o.loi },
    { id: "device", header: "Device", hidden: true, cell: (o) => o.device },
    { id: "cpi", header: "Reward", align: "right", cell: (o) => formatMoney(o.cpi) },
    {
      id: "quotas",
      header: "Quotas",
      cell: (o) => (
        <Button
          size="sm"
          variant="outline"
          onClick={() => setQuotas(o)}
          aria-label={`Quotas of ${o.surveyId}`}
        >
          {o.provider === "logit" || o.provider === "mrkt" ? "View" : `View (${o.quotas.length})`}
        </Button>
      ),
    },
    {
      id: "qualifications",
      header: "Qualifications",
      cell: (o) => (
        <Button
          size="sm"
          variant="outline"
          onClick={() => setQuals(o)}
          aria-label={`Qualifications of ${o.surveyId}`}
        >
          View ({o.qualifications.length})
        </Button>
      ),
    },
    { id: "endDate", header: "End date", cell: (o) => (o.endDate ? isoDayToDisplay(o.endDate) : "") },
  ], [external]);

  const actions = useMemo<RowAction<ExternalOffer>[]>(() => [
    {
      label: "Add as project",
      icon: FolderPlus,
      disabled: (o) => (o.imported ? `Imported as ${o.imported.projectCode}` : false),
      onSelect: (o) => {
        setClientId(opts.defaultClientId ?? "");
        setAdding(o);
      },
    },
  ], [opts.defaultClientId]);

  const add = async () => {
    if (!adding || !clientId) return;
    setBusy(true);
    try {
      const res = await opts.add(adding, clientId);
      notify.success(res.message);
      setAdding(null);
      opts.onAdded();
      navigate(`/admin/project/${res.groupProjectId}/childs`);
    } catch {
      // the API client has shown the reason
    } finally {
      setBusy(false);
    }
  };

  const dialogs = (
    <>
      {quotas ? <QuotasDialog offer={quotas} external={external} onClose={() => setQuotas(null)} /> : null}
      {quals
        ? <QualificationsDialog offer={quals} external={external} onClose={() => setQuals(null)} />
        : null}
      <ConfirmDialog
        open={!!adding}
        onOpenChange={(o) => !o && setAdding(null)}
        title="Are you sure?"
        destructive={false}
        busy={busy}
        description={
          <span className="flex flex-col gap-3">
            <span>This action will create a new project</span>
            <Select
              ariaLabel="Client"
              placeholder="Client"
              value={clientId}
              onValueChange={setClientId}
              options={(clients.data ?? []).map((c) => ({ value: c._id, label: c.clientName }))}
            />
          </span>
        }
        onConfirm={add}
      />
    </>
  );
  return { columns, actions, dialogs };
}
