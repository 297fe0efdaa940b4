/**
 * Rows chosen by checkbox open this bottom drawer (part 1, 2.6): the selected projects' child
 * projects, each with a checkbox, and Send Email, which sends one message per chosen child project
 * to the suppliers mapped to it.
 */
import * as React from "react";
import { useQueries } from "@tanstack/react-query";
import { ChevronDown, ChevronUp, Mail, X } from "lucide-react";
import { api } from "../../lib/api.ts";
import { childOptionsCall } from "../../../../shared/api/projects.ts";
import { cn } from "../../lib/utils.ts";
import { Button } from "../../components/ui/button.tsx";
import { Checkbox } from "../../components/ui/checkbox.tsx";
import { Skeleton } from "../../components/ui/skeleton.tsx";
import { type ChildOption, childrenKey, type ProjectRow } from "./projects.ts";
import { ProjectEmailDialog } from "./ProjectEmailDialog.tsx";
import { StatusBadge } from "./StatusMenu.tsx";

export function SelectionDrawer({ projects, onClear }: { projects: ProjectRow[]; onClear: () => void }) {
  const [collapsed, setCollapsed] = React.useState(false);
  const [unchecked, setUnchecked] = React.useState<Set<string>>(new Set());
  const [sending, setSending] = React.useState<ChildOption[]>([]);
  const children = useQueries({
    queries: projects.map((p) => ({
      queryKey: childrenKey(p._id),
      staleTime: 30_000,
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        (await api(childOptionsCall, { params: { parentProjectId: p._id } }, { signal })).result,
    })),
  });
  const all = children.flatMap((q) => q.data ?? []);
  const chosen = all.filter((c) => !unchecked.has(c._id));
  const titleId = React.useId();

  function toggle(id: string, on: boolean) {
    setUnchecked((prev) => {
      const next = new Set(prev);
      if (on) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  return (
    <>
      {/* the grid's drawer (SelectionRegion) places it at the bottom of the screen */}
      <section aria-labelledby={titleId} data-testid="selection-drawer">
        <div className="mx-auto flex max-w-[1440px] flex-col gap-3 px-4 py-3 lg:px-6">
          <div className="flex flex-wrap items-center gap-3">
            <h2 id={titleId} className="font-semibold">
              {projects.length} project{projects.length === 1 ? "" : "s"} selected
            </h2>
            <span className="text-sm text-muted-foreground">
              {chosen.length} of {all.length} child project{all.length === 1 ? "" : "s"} chosen
            </span>
            <div className="ml-auto flex items-center gap-2">
              <Button disabled={chosen.length === 0} onClick={() => setSending(chosen)}>
                <Mail /> Send Email
              </Button>
              <Button
                variant="ghost"
                size="icon"
                aria-label={collapsed ? "Show child projects" : "Hide child projects"}
                aria-expanded={!collapsed}
                onClick={() => setCollapsed((c) => !c)}
              >
                {collapsed ? <ChevronUp /> : <ChevronDown />}
              </Button>
              <Button variant="ghost" size="icon" aria-label="Clear selection" onClick={onClear}>
                <X />
              </Button>
            </div>
          </div>
          {collapsed
            ? null
            : (
              <div className="grid max-h-[32vh] gap-3 overflow-y-auto pb-1 sm:grid-cols-2 xl:grid-cols-3">
                {projects.map((p, i) => {
                  const q = children[i];
                  return (
                    <div key={p._id} className="rounded-lg border p-3">
                      <p className="mb-2 truncate text-sm font-medium">
                        {p.projectCode}{" "}
                        <span className="font-normal text-muted-foreground">· {p.projectName}</span>
                      </p>
                      {q?.isPending
                        ? <Skeleton className="h-6 w-full" />
                        : q?.isError
                        ? <p className="text-sm text-destructive">Child projects could not be loaded.</p>
                        : (q?.data ?? []).length === 0
                        ? <p className="text-sm text-muted-foreground">No child projects</p>
                        : (
                          <ul className="flex flex-col gap-1.5">
                            {q!.data!.map((c) => {
                              const id = `drawer-${c._id}`;
                              return (
                                <li key={c._id} className={cn("flex items-center gap-2 text-sm")}>
                                  <Checkbox
                                    id={id}
                                    checked={!unchecked.has(c._id)}
                                    onCheckedChange={(on) => toggle(c._id, on === true)}
                                  />
                                  <label htmlFor={id} className="flex min-w-0 flex-1 cursor-pointer gap-2">
                                    <span className="font-medium">{c.projectCode}</span>
                                    <span className="truncate text-muted-foreground">{c.projectName}</span>
                                  </label>
                                  <StatusBadge status={c.projectStatus} />
                                </li>
                              );
                            })}
                          </ul>
                        )}
                    </div>
                  );
                })}
              </div>
            )}
        </div>
        <ProjectEmailDialog projects={sending} title="Send Email" onClose={() => setSending([])} />
      </section>
    </>
  );
}
