/**
 * /admin/api, /admin/api/logit, /admin/api/toluna (Toulna), /admin/api/circle, /admin/api/mrkt (part 2,
 * External import pages, APIMANAGER): a provider's available surveys, its quota and qualification
 * dialogs, and a row action adding the survey as a project after 'This action will create a new
 * project'. A provider not configured says so here; the built-in stand-in is labelled Sandbox.
 */
import { useMemo, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { CloudOff, FolderPlus, RefreshCw } from "lucide-react";
import { api, callKey } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { formatMoney, isoDayToDisplay } from "../../lib/format.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import type { GridColumn, RowAction } from "../../components/data-grid/types.ts";
import { Button } from "../../components/ui/button.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Select } from "../../components/ui/select.tsx";
import { ConfirmDialog } from "../../components/ui/dialog.tsx";
import { clientOptionsCall } from "../../../../shared/api/clients.ts";
import { type OfferPage, PROVIDER_CALLS } from "../../../../shared/api/providers.ts";
import { PROVIDER_NAMES } from "../../../../shared/schemas/providers.ts";
import { type ExternalOffer, offersDecl, PROVIDER_TABS, providerOfPath, providerTabs } from "./imports.ts";
import { QualificationsDialog, QuotasDialog } from "./OfferDialogs.tsx";

export default function ProviderOffersPage() {
  const { pathname } = useLocation();
  const key = providerOfPath(pathname);
  // one grid per provider: remount on a tab change so each keeps its own state
  return <ProviderOffers key={key} provider={key} />;
}

function ProviderOffers({ provider }: { provider: ExternalOffer["provider"] }) {
  const decl = useMemo(() => offersDecl(provider), [provider]);
  const list = useList<ExternalOffer>(decl);
  const navigate = useNavigate();
  const page = list.query.data as OfferPage | undefined;
  const state = page?.provider;
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
  const label = PROVIDER_TABS.find((t) => t.key === provider)!.label.slice(3);

  const columns = useMemo<GridColumn<ExternalOffer>[]>(() => [
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
          {provider === "logit" || provider === "mrkt" ? "View" : `View (${o.quotas.length})`}
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
  ], [provider]);

  const actions = useMemo<RowAction<ExternalOffer>[]>(() => [
    {
      label: "Add as project",
      icon: FolderPlus,
      disabled: (o) => (o.imported ? `Imported as ${o.imported.projectCode}` : false),
      onSelect: (o) => {
        setClientId("");
        setAdding(o);
      },
    },
  ], []);

  const add = async () => {
    if (!adding || !clientId) return;
    setBusy(true);
    try {
      const res = await api(PROVIDER_CALLS[provider].add, {
        body: { surveyId: adding.surveyId, clientId, countryCode: adding.countryCode },
      });
      notify.success(res.message);
      setAdding(null);
      void list.invalidate();
      navigate(`/admin/project/${res.result.groupProjectId}/childs`);
    } catch {
      // the API client has shown the reason
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader
        title={label}
        description={`${
          PROVIDER_NAMES[provider]
        }'s available surveys: open their quotas and qualifications, and add one as a project.`}
        tabs={providerTabs}
      />
      {state && !state.configured
        ? (
          <Card
            className="flex flex-col items-center gap-3 px-6 py-12 text-center"
            data-testid="provider-not-configured"
          >
            <CloudOff className="size-6 text-muted-foreground" aria-hidden="true" />
            <h2 className="text-lg font-semibold">{PROVIDER_NAMES[provider]} is not configured</h2>
            <p className="text-sm text-muted-foreground">{state.note}</p>
          </Card>
        )
        : (
          <>
            {state?.sandbox
              ? (
                <p
                  className="flex items-center gap-2 text-sm text-muted-foreground"
                  data-testid="sandbox-note"
                >
                  <Badge tone="amber">Sandbox</Badge> {state.note}
                </p>
              )
              : null}
            <FilterToolbar
              list={list}
              actions={
                <Button
                  variant="outline"
                  onClick={() => void list.invalidate()}
                  loading={list.query.isFetching}
                >
                  {list.query.isFetching ? null : <RefreshCw />} Reload
                </Button>
              }
            />
            <DataGrid list={list} columns={columns} rowActions={actions} caption={`${label} surveys`} />
          </>
        )}
      {quotas ? <QuotasDialog offer={quotas} onClose={() => setQuotas(null)} /> : null}
      {quals ? <QualificationsDialog offer={quals} onClose={() => setQuals(null)} /> : null}
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
}
