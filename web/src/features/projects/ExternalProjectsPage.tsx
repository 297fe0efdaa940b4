/**
 * /admin/project/fetch (part 1, 2.6, Projects External): survey offers of the external sample
 * providers. No provider is wired to this screen yet, so it says so plainly (design, section 6: a
 * provider that is not configured says so clearly and nothing breaks) instead of an empty grid.
 */
import { CloudOff } from "lucide-react";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Card } from "../../components/ui/card.tsx";
import { PROJECTS_DESCRIPTION } from "./ProjectsListPage.tsx";
import { useProjectTabs } from "./projects.ts";

const PROVIDERS = ["PRECISION", "LOGIT", "TOLUNA", "CIRCLE", "MRKT"];

export default function ExternalProjectsPage() {
  const tabs = useProjectTabs();
  return (
    <>
      <PageHeader title="Projects" description={PROJECTS_DESCRIPTION} tabs={tabs} />
      <Card className="flex flex-col items-center gap-4 px-6 py-14 text-center" data-testid="external-empty">
        <span className="grid size-12 place-items-center rounded-full bg-muted text-muted-foreground">
          <CloudOff className="size-6" aria-hidden="true" />
        </span>
        <div className="flex max-w-xl flex-col gap-1.5">
          <h2 className="text-lg font-semibold">No provider configured</h2>
          <p className="text-muted-foreground">
            External survey offers appear here once a sample provider is connected. Until then there is
            nothing to import, and every other projects screen works as usual.
          </p>
        </div>
        <div className="flex flex-col items-center gap-2 text-sm text-muted-foreground">
          <p>An administrator connects a provider with its address and key in the server's environment:</p>
          <ul className="flex flex-wrap justify-center gap-1.5">
            {PROVIDERS.map((p) => (
              <li key={p}>
                <code className="rounded bg-muted px-1.5 py-0.5 text-xs">PROVIDER_{p}_URL / _KEY</code>
              </li>
            ))}
          </ul>
        </div>
      </Card>
    </>
  );
}
