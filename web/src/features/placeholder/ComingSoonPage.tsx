/** The one shared panel for screens of later releases: routing and permissions already work. */
import { Link, useLocation, useMatches } from "react-router";
import { Construction } from "lucide-react";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { buttonVariants } from "../../components/ui/button.tsx";
import { useAuth } from "../../lib/auth.ts";
import { homePathFor } from "../../../../shared/roles.ts";
import { PLACEHOLDER_DESCRIPTIONS } from "./descriptions.ts";

type Handle = { title?: string; screen?: string } | undefined;

export default function ComingSoonPage() {
  const matches = useMatches();
  const { pathname } = useLocation();
  const handle = matches[matches.length - 1]?.handle as Handle;
  const role = useAuth((s) => s.admin?.role);
  // the supplier's home is itself a screen of a later release: no button that leads back here
  const home = role ? homePathFor(role) : null;
  const showHome = !!home && home !== pathname.replace(/\/+$/, "");
  return (
    <>
      <PageHeader
        title={handle?.title ?? "Samplex"}
        description={handle?.screen ? PLACEHOLDER_DESCRIPTIONS[handle.screen] : undefined}
      />
      <section
        className="flex flex-col items-center gap-4 rounded-xl border border-dashed bg-card px-6 py-16 text-center"
        aria-labelledby="coming-soon-title"
      >
        <span className="grid size-12 place-items-center rounded-full bg-accent text-accent-foreground">
          <Construction className="size-6" aria-hidden="true" />
        </span>
        <div className="flex max-w-md flex-col gap-1.5">
          <h2 id="coming-soon-title" className="text-lg font-semibold">
            This screen arrives in a later release
          </h2>
          <p className="text-muted-foreground">
            Your access to it is already set up. Until it ships, nothing here can be viewed or changed.
          </p>
        </div>
        {showHome
          ? (
            <Link to={home} className={buttonVariants({ variant: "outline" })}>
              Back to home
            </Link>
          )
          : null}
      </section>
    </>
  );
}
