/** The one shared panel for screens of later releases: routing and permissions already work. */
import { Link, useMatches } from "react-router";
import { Construction } from "lucide-react";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { buttonVariants } from "../../components/ui/button.tsx";
import { useAuth } from "../../lib/auth.ts";
import { homePathFor } from "../../../../shared/roles.ts";

type Handle = { title?: string; area?: string } | undefined;

export default function ComingSoonPage() {
  const matches = useMatches();
  const handle = matches[matches.length - 1]?.handle as Handle;
  const role = useAuth((s) => s.admin?.role);
  return (
    <>
      <PageHeader
        title={handle?.title ?? "Samplex"}
        description={handle?.area && handle.area !== handle.title ? handle.area : undefined}
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
        {role
          ? (
            <Link to={homePathFor(role)} className={buttonVariants({ variant: "outline" })}>
              Back to home
            </Link>
          )
          : null}
      </section>
    </>
  );
}
