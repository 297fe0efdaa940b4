/**
 * /admin/project/fetch (part 1, 2.6, Projects External): the external survey offers of every
 * configured provider, 20 a page (page in `p`), with their quota and qualification dialogs, filters
 * provider, country, clientdiy and export, and a row action adding an offer as a project after 'This
 * action will create a new project'. With no provider configured it says so, and how to try the
 * built-in sandbox.
 */
import { CloudOff } from "lucide-react";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Badge } from "../../components/ui/badge.tsx";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { useList } from "../../components/data-grid/useList.ts";
import { api } from "../../lib/api.ts";
import { addExternalProject, type ExternalOfferPage } from "../../../../shared/api/providers.ts";
import { PROVIDER_ENV_NAMES, PROVIDER_KEYS } from "../../../../shared/schemas/providers.ts";
import { type ExternalOffer, externalOffersDecl, useOfferGrid } from "../imports/index.ts";
import { PROJECTS_DESCRIPTION } from "./ProjectsListPage.tsx";
import { useProjectTabs } from "./projects.ts";

export default function ExternalProjectsPage() {
  const tabs = useProjectTabs();
  const list = useList<ExternalOffer>(externalOffersDecl);
  const providers = (list.query.data as ExternalOfferPage | undefined)?.providers;
  const client = list.body.filter.clientdiy;
  const { columns, actions, dialogs } = useOfferGrid({
    external: true,
    defaultClientId: typeof client === "string" ? client : undefined,
    add: async (offer, clientId) => {
      const res = await api(addExternalProject, {
        body: {
          provider: offer.provider,
          surveyId: offer.surveyId,
          clientId,
          countryCode: offer.countryCode,
        },
      });
      return { ...res.result, message: res.message };
    },
    onAdded: () => void list.invalidate(),
  });

  const none = providers && !providers.some((p) => p.configured);
  const sandboxed = providers?.filter((p) => p.sandbox) ?? [];
  const failed = providers?.filter((p) => p.error) ?? [];
  return (
    <>
      <PageHeader title="Projects" description={PROJECTS_DESCRIPTION} tabs={tabs} />
      {none
        ? (
          <Card
            className="flex flex-col items-center gap-4 px-6 py-14 text-center"
            data-testid="external-empty"
          >
            <span className="grid size-12 place-items-center rounded-full bg-muted text-muted-foreground">
              <CloudOff className="size-6" aria-hidden="true" />
            </span>
            <div className="flex max-w-xl flex-col gap-1.5">
              <h2 className="text-lg font-semibold">No provider configured</h2>
              <p className="text-muted-foreground">
                External survey offers appear here once a sample provider is connected. Every other projects
                screen works as usual.
              </p>
            </div>
            <div className="flex max-w-xl flex-col items-center gap-2 text-sm text-muted-foreground">
              <p>
                An administrator connects a provider with its address and key in the server's environment:
              </p>
              <ul className="flex flex-wrap justify-center gap-1.5">
                {PROVIDER_KEYS.map((k) => (
                  <li key={k}>
                    <code className="rounded bg-muted px-1.5 py-0.5 text-xs">
                      PROVIDER_{PROVIDER_ENV_NAMES[k]}_URL / _KEY
                    </code>
                  </li>
                ))}
              </ul>
              <p data-testid="sandbox-howto">
                To try it without a provider, use the sandbox: start the server with{" "}
                <code className="rounded bg-muted px-1.5 py-0.5 text-xs">SEED=demo</code>{" "}
                (the default on an empty database) and leave a provider's URL unset. Its offers then come from
                the built-in stand-in at{" "}
                <code className="rounded bg-muted px-1.5 py-0.5 text-xs">/sandbox/&lt;provider&gt;</code>,
                labelled Sandbox.
              </p>
            </div>
          </Card>
        )
        : (
          <>
            {sandboxed.length
              ? (
                <p
                  className="flex items-center gap-2 text-sm text-muted-foreground"
                  data-testid="sandbox-note"
                >
                  <Badge tone="amber">Sandbox</Badge>
                  {sandboxed.map((p) => p.name).join(", ")}: built-in stand-in offers, not the real providers.
                </p>
              )
              : null}
            {failed.map((p) => (
              <p
                key={p.provider}
                role="status"
                className="text-sm text-destructive"
                data-testid="provider-error"
              >
                {p.error}
              </p>
            ))}
            <FilterToolbar list={list} />
            <DataGrid
              list={list}
              columns={columns}
              rowActions={actions}
              caption="External survey offers"
              emptyText="No offer matches"
            />
          </>
        )}
      {dialogs}
    </>
  );
}
