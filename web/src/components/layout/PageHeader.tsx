import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { cn } from "../../lib/utils.ts";

export type PageTab = { label: string; to: string; end?: boolean };

/** Title, optional description and actions, and an optional tab strip of routes. */
export function PageHeader({
  title,
  description,
  actions,
  tabs,
  back,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  tabs?: PageTab[];
  back?: ReactNode;
}) {
  return (
    <div className="mb-5 flex flex-col gap-4">
      {back}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          {description ? <p className="text-muted-foreground">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
      {tabs?.length
        ? (
          <nav aria-label="Sections" className="-mb-px flex gap-1 overflow-x-auto border-b">
            {tabs.map((t) => (
              <NavLink
                key={t.to}
                to={t.to}
                end={t.end ?? true}
                className={({ isActive }) =>
                  cn(
                    "whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset rounded-t-md",
                    isActive
                      ? "border-primary text-primary"
                      : "border-transparent text-muted-foreground hover:text-foreground hover:border-border",
                  )}
              >
                {t.label}
              </NavLink>
            ))}
          </nav>
        )
        : null}
    </div>
  );
}
