/**
 * /admin/api, /admin/api/logit, /admin/api/toluna (Toulna), /admin/api/circle, /admin/api/mrkt (part 2,
 * External import pages, APIMANAGER): a provider's available surveys, its quota and qualification
 * dialogs, and a row action adding the survey as a project after 'This action will create a new
 * project'. A provider not configured says so here; the built-in stand-in is labelled Sandbox.
 */
import { useMemo } from "react";
import { useLocation } from "react-router";
import { CloudOff, RefreshCw } from "lucide-react";
import { api } from "../../lib/api.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import { Button } from "../../components/ui/button.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { Card } from "../../components/ui/card.tsx";
import { type OfferPage, PROVIDER_CALLS } from "../../../../shared/api/providers.ts";
import { PROVIDER_NAMES } from "../../../../shared/schemas/providers.ts";
import { type ExternalOffer, offersDecl, PROVIDER_TABS, providerOfPath, providerTabs } from "./imports.ts";
import { useOfferGrid } from "./OfferGrid.tsx";

export default function ProviderOffersPage() {
  const { pathname } = useLocation();
  const key = providerOfPath(pathname);
  // one grid per provider: remount on a tab change so each keeps its own state
  return <ProviderOffers key={key} provider={key} />;
}

function ProviderOffers({ provider }: { provider: ExternalOffer["provider"] }) {
  const decl = useMemo(() => offersDecl(provider), [provider]);
  const list = useList<ExternalOffer>(decl);
  const page = list.query.data as OfferPage | undefined;
  const state = page?.provider;
  const label = PROVIDER_TABS.find((t) => t.key === provider)!.label.slice(3);
  const { columns, actions, dialogs } = useOfferGrid({
    add: async (offer, clientId) => {
      const res = await api(PROVIDER_CALLS[provider].add, {
        body: { surveyId: offer.surveyId, clientId, countryCode: offer.countryCode },
      });
      return { ...res.result, message: res.message };
    },
    onAdded: () => void list.invalidate(),
  });

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
      {dialogs}
    </>
  );
}
