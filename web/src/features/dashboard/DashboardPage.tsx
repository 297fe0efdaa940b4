/** /admin/dashboard: a welcome header, the Search Project box and cards to the areas the role can open. */
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import {
  ArrowRight,
  BookOpen,
  Boxes,
  Building2,
  ChartColumn,
  CloudDownload,
  FolderKanban,
  LifeBuoy,
  type LucideIcon,
  Receipt,
  Scale,
  Search,
  Truck,
  Users,
} from "lucide-react";
import { canOpenScreen, navigationFor } from "../../../../shared/permissions.ts";
import { ROLE_LABELS } from "../../../../shared/roles.ts";
import { useAuth } from "../../lib/auth.ts";
import { Input } from "../../components/ui/input.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Badge } from "../../components/ui/badge.tsx";

const AREAS: Record<string, { icon: LucideIcon; text: string }> = {
  "/admin/project": { icon: FolderKanban, text: "Group and child projects, quotas, suppliers and status." },
  "/admin/api": { icon: CloudDownload, text: "Import survey offers from external sample providers." },
  "/admin/client": { icon: Building2, text: "Buyers of completes, their contacts and API settings." },
  "/admin/supplier": { icon: Truck, text: "Panels and traffic providers, redirects and CPI rules." },
  "/admin/report": { icon: ChartColumn, text: "Client, supplier and completion reports as CSV." },
  "/admin/reconcile": { icon: Scale, text: "Approve or reject respondent identifiers per project." },
  "/admin/invoice": { icon: Receipt, text: "Ready to invoice, invoices, finances and purchase orders." },
  "/admin/user": { icon: Users, text: "Staff and supplier accounts, roles and access." },
  "/admin/library": { icon: BookOpen, text: "Categories, questions, qualifications and supplier rules." },
  "/admin/support": { icon: LifeBuoy, text: "Identifier search, short codes, system logs and jobs." },
  "/supplier/project": { icon: FolderKanban, text: "Projects mapped to your supplier account." },
  "/supplier/inventory": { icon: Boxes, text: "Projects you can start sending traffic to." },
};

function greeting(now = new Date()) {
  const h = now.getHours();
  return h < 12 ? "Good morning" : h < 18 ? "Good afternoon" : "Good evening";
}

export default function DashboardPage() {
  const admin = useAuth((s) => s.admin)!;
  const navigate = useNavigate();
  const [search, setSearch] = useState("");
  const areas = navigationFor(admin.role).filter((n) => n.path !== "/admin/dashboard");
  const canSearchProjects = canOpenScreen(admin.role, "/admin/project");

  return (
    <div className="flex flex-col gap-8">
      <section className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1.5">
          <p className="text-sm text-muted-foreground">{greeting()},</p>
          <h1 className="text-2xl font-semibold tracking-tight" data-testid="welcome">
            Welcome, {admin.fullName}
          </h1>
          <div className="flex items-center gap-2 text-muted-foreground">
            <Badge tone="primary">{ROLE_LABELS[admin.role]}</Badge>
            <span>{admin.email}</span>
          </div>
        </div>
        {canSearchProjects
          ? (
            <form
              role="search"
              className="flex w-full max-w-sm gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                const q = search.trim();
                navigate(q ? `/admin/project?q=${encodeURIComponent(q)}` : "/admin/project");
              }}
            >
              <div className="relative flex-1">
                <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
                <Input
                  aria-label="Search Project"
                  placeholder="Search Project"
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                  className="pl-9"
                />
              </div>
              <Button type="submit" variant="outline">Search</Button>
            </form>
          )
          : null}
      </section>

      <section aria-labelledby="areas-title" className="flex flex-col gap-3">
        <h2 id="areas-title" className="text-sm font-semibold uppercase tracking-wide text-muted-foreground">
          Your areas
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {areas.map((a) => {
            const meta = AREAS[a.path];
            const Icon = meta?.icon ?? FolderKanban;
            return (
              <li key={a.path}>
                <Link
                  to={a.path}
                  className="group flex h-full items-start gap-4 rounded-xl border bg-card p-5 shadow-xs transition hover:border-primary/40 hover:shadow-md focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-accent text-accent-foreground">
                    <Icon className="size-5" aria-hidden="true" />
                  </span>
                  <span className="flex min-w-0 flex-1 flex-col gap-1">
                    <span className="flex items-center justify-between gap-2 font-semibold">
                      {a.label}
                      <ArrowRight
                        className="size-4 text-muted-foreground transition group-hover:translate-x-0.5 group-hover:text-primary"
                        aria-hidden="true"
                      />
                    </span>
                    <span className="text-sm text-muted-foreground">{meta?.text}</span>
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
