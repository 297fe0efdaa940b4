/** The signed-in frame: top bar with logo, role-based navigation and the avatar menu (part 1, 2.2). */
import { useEffect, useState } from "react";
import { Link, NavLink, Outlet, useNavigate } from "react-router";
import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { queryClient } from "../lib/query.ts";
import { BookOpen, DatabaseBackup, House, LogOut, Settings, UserRound } from "lucide-react";
import { canOpenScreen, navigationFor } from "../../../shared/permissions.ts";
import { homePathFor, type Role, ROLE_LABELS } from "../../../shared/roles.ts";
import { api } from "../lib/api.ts";
import { adminMeCall, supplierMeCall } from "../../../shared/api/session.ts";
import { initialsOf, useAuth } from "../lib/auth.ts";
import { signOut } from "../lib/session.ts";
import { cn } from "../lib/utils.ts";
import { Logo } from "../components/layout/Logo.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../components/ui/dropdown-menu.tsx";

export function AppShell() {
  const admin = useAuth((s) => s.admin);
  if (!admin) return null; // the guard has already sent the user to /login
  const nav = navigationFor(admin.role);

  return (
    <QueryClientProvider client={queryClient}>
      <Frame nav={nav} role={admin.role} />
    </QueryClientProvider>
  );
}

/**
 * Re-reads the signed-in user once per visit, so a stored admin whose name or role changed (or
 * whose session ended) is brought up to date; a 401 here ends the session like any other call.
 */
function useFreshAdmin() {
  const setAdmin = useAuth((s) => s.setAdmin);
  const me = useQuery({
    queryKey: ["me"],
    staleTime: Infinity,
    queryFn: async ({ signal }) =>
      (await api(useAuth.getState().admin?.role === "SUPPLIER" ? supplierMeCall : adminMeCall, {}, {
        signal,
        quiet: (e) => e.status !== 401,
      })).result,
  });
  useEffect(() => {
    const current = useAuth.getState().admin;
    if (me.data && current && me.data._id === current._id) {
      const { _id, firstName, lastName, fullName, email, role, supplierId, isActive } = me.data;
      setAdmin({ _id, firstName, lastName, fullName, email, role, supplierId, isActive });
    }
  }, [me.data, setAdmin]);
}

/** The signed-in frame; the query cache lives here, so the sign-in page does not load it. */
function Frame({ nav, role }: { nav: ReturnType<typeof navigationFor>; role: Role }) {
  useFreshAdmin();
  return (
    <div className="flex min-h-svh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-[60] focus:rounded-md focus:bg-card focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-40 border-b bg-card/95 backdrop-blur supports-[backdrop-filter]:bg-card/80">
        <div className="mx-auto flex h-14 max-w-[1440px] items-center gap-4 px-4 lg:px-6">
          {/* the spec's logo link is /admin/dashboard; suppliers, who may not open it, go home */}
          <Link
            to={homePathFor(role)}
            className="shrink-0 rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-card"
            aria-label="Samplex home"
          >
            <Logo />
          </Link>
          {/* the list's padding leaves room for the focus ring, which the scrolling nav would clip */}
          <nav aria-label="Main" className="min-w-0 flex-1 overflow-x-auto" data-testid="main-nav">
            <ul className="flex items-center gap-0.5 p-1">
              {nav.map((item) => (
                <li key={item.path}>
                  <NavLink
                    to={item.path}
                    className={({ isActive }) =>
                      cn(
                        "block whitespace-nowrap rounded-md px-2.5 py-1.5 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-card",
                        isActive
                          ? "bg-accent text-accent-foreground"
                          : "text-muted-foreground hover:bg-muted hover:text-foreground",
                      )}
                  >
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <AvatarMenu />
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-[1440px] flex-1 px-4 py-6 lg:px-6">
        <Outlet />
      </main>
    </div>
  );
}

function AvatarMenu() {
  const admin = useAuth((s) => s.admin)!;
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);

  async function logout() {
    setLeaving(true);
    // a logout the server did not confirm leaves the user signed in, here (the notice says so)
    if (await signOut()) navigate("/login", { replace: true });
    else setLeaving(false);
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="flex size-9 shrink-0 cursor-pointer items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground ring-offset-2 ring-offset-card transition hover:opacity-90 focus-visible:ring-2 focus-visible:ring-ring"
        aria-label={`Account menu for ${admin.fullName}`}
        data-testid="avatar-menu"
      >
        {initialsOf(admin)}
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="flex flex-col gap-0.5">
          <span className="truncate font-semibold">{admin.fullName}</span>
          <span className="truncate text-xs font-normal text-muted-foreground">{admin.email}</span>
          <span className="text-xs font-normal text-muted-foreground">{ROLE_LABELS[admin.role]}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate(homePathFor(admin.role))}>
          <House /> Home
        </DropdownMenuItem>
        {/* Profile and Settings lead nowhere yet (part 1, 2.2). */}
        <DropdownMenuItem onSelect={() => {}}>
          <UserRound /> Profile
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => {}}>
          <Settings /> Settings
        </DropdownMenuItem>
        {/* operations pages of Support, for the roles that may open them */}
        {canOpenScreen(admin.role, "/admin/support/api-reference")
          ? (
            <DropdownMenuItem onSelect={() => navigate("/admin/support/api-reference")}>
              <BookOpen /> API reference
            </DropdownMenuItem>
          )
          : null}
        {canOpenScreen(admin.role, "/admin/support/backups")
          ? (
            <DropdownMenuItem onSelect={() => navigate("/admin/support/backups")}>
              <DatabaseBackup /> Backups
            </DropdownMenuItem>
          )
          : null}
        <DropdownMenuSeparator />
        <DropdownMenuItem
          destructive
          disabled={leaving}
          onSelect={(e) => {
            e.preventDefault();
            void logout();
          }}
        >
          <LogOut /> Logout
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
