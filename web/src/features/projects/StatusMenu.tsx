/**
 * The status of a project in a grid, as a menu (part 1, section 4). The group list offers Testing,
 * Live, Paused and Waiting other than the current status, and always Closed, which asks for a PO
 * number first; child projects offer only Live and Paused. Choices the server's transition table
 * refuses from the current status are shown disabled, with the reason.
 */
import type * as React from "react";
import type * as v from "valibot";
import { ChevronDown } from "lucide-react";
import { useWatch } from "react-hook-form";
import { MSG } from "../../../../shared/messages.ts";
import { ClosePo } from "../../../../shared/schemas/project.ts";
import {
  canChangeStatus,
  CHILD_STATUS_MENU,
  LIST_STATUS_MENU,
  PROJECT_STATUS,
  projectStatusLabel,
} from "../../../../shared/status.ts";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { SubmitButton, TextField } from "../../components/form/fields.tsx";
import { Badge, badgeVariants } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../components/ui/dialog.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../../components/ui/dropdown-menu.tsx";
import { api } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";
import { cn } from "../../lib/utils.ts";
import { type ProjectRow, STATUS_TONES } from "./projects.ts";

export function StatusBadge({ status, label }: { status: number; label?: string }) {
  return <Badge tone={STATUS_TONES[status] ?? "neutral"}>{label ?? projectStatusLabel(status)}</Badge>;
}

export function ProjectStatusMenu({
  project,
  variant,
  disabled,
  onChange,
  onClose,
}: {
  project: Pick<ProjectRow, "projectCode" | "projectStatus" | "projectStatusLabel">;
  /** "group": Testing, Live, Paused, Waiting and Closed; "child": Live and Paused. */
  variant: "group" | "child";
  disabled?: boolean;
  onChange: (status: number) => void;
  /** Closed was chosen: ask for the PO number. */
  onClose?: () => void;
}) {
  const current = project.projectStatus;
  const menu = (variant === "group" ? LIST_STATUS_MENU : CHILD_STATUS_MENU).filter((s) => s !== current);
  const tone = STATUS_TONES[current] ?? "neutral";
  const label = project.projectStatusLabel || projectStatusLabel(current);
  if (disabled) return <StatusBadge status={current} label={label} />;
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger
        className={cn(
          badgeVariants({ tone }),
          "cursor-pointer gap-1 pr-1.5 transition-shadow hover:shadow-sm focus-visible:ring-2 focus-visible:ring-ring/40",
        )}
        aria-label={`Status of ${project.projectCode}: ${label}. Change status`}
      >
        {label}
        <ChevronDown className="size-3 opacity-70" aria-hidden="true" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start">
        <DropdownMenuLabel className="text-xs font-medium text-muted-foreground">
          Change status
        </DropdownMenuLabel>
        {menu.map((s) => {
          const allowed = canChangeStatus(current, s);
          return (
            <DropdownMenuItem
              key={s}
              disabled={!allowed}
              title={allowed ? undefined : `Not possible from ${label}`}
              onSelect={() => onChange(s)}
            >
              <StatusDot status={s} />
              {projectStatusLabel(s)}
            </DropdownMenuItem>
          );
        })}
        {variant === "group" && onClose
          ? (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem
                disabled={!canChangeStatus(current, PROJECT_STATUS.CLOSED)}
                onSelect={() => onClose()}
              >
                <StatusDot status={PROJECT_STATUS.CLOSED} />
                {projectStatusLabel(PROJECT_STATUS.CLOSED)}…
              </DropdownMenuItem>
            </>
          )
          : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

const DOT: Record<string, string> = {
  green: "bg-emerald-500",
  blue: "bg-sky-500",
  amber: "bg-amber-500",
  violet: "bg-violet-500",
  slate: "bg-slate-500",
  red: "bg-red-500",
  zinc: "bg-zinc-400",
  orange: "bg-orange-500",
  cyan: "bg-cyan-500",
};

function StatusDot({ status }: { status: number }) {
  return (
    <span
      className={cn("size-2 shrink-0 rounded-full", DOT[STATUS_TONES[status] ?? ""] ?? "bg-muted-foreground")}
      aria-hidden="true"
    />
  );
}

/**
 * Close (part 1, 4 and 5): the PO number is required ('PO Number is required') and Close stays
 * disabled until one is typed; PUT /admin/project/code/update/:projectCode {poNumber}.
 */
export function CloseProjectDialog({
  project,
  onOpenChange,
  onClosed,
}: {
  project: Pick<ProjectRow, "projectCode" | "projectName" | "poNumber"> | null;
  onOpenChange: (open: boolean) => void;
  onClosed: (result: ProjectRow) => void;
}) {
  return (
    <Dialog open={!!project} onOpenChange={onOpenChange}>
      <DialogContent onInteractOutside={(e) => e.preventDefault()}>
        {project ? <CloseForm project={project} onClosed={onClosed} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function CloseForm({
  project,
  onClosed,
}: {
  project: Pick<ProjectRow, "projectCode" | "projectName" | "poNumber">;
  onClosed: (result: ProjectRow) => void;
}) {
  const form = useSchemaForm(ClosePo, { poNumber: project.poNumber ?? "" });
  const po = useWatch({ control: form.control, name: "poNumber" }) as string;
  async function submit(values: ClosePoValues) {
    const res = await api.put<ProjectRow>(
      `/admin/project/code/update/${encodeURIComponent(project.projectCode)}`,
      values,
    );
    notify.success(res.message);
    onClosed(res.result);
  }
  return (
    <Form form={form} onSubmit={submit} className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Close {project.projectCode}</DialogTitle>
        <DialogDescription>
          {project.projectName}: closing needs the client's purchase order number.
        </DialogDescription>
      </DialogHeader>
      <TextField name="poNumber" label="PO Number" required autoComplete="off" autoFocus />
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">Cancel</Button>
        </DialogClose>
        <ClosePoSubmit empty={!po?.trim()} />
      </DialogFooter>
    </Form>
  );
}

function ClosePoSubmit({ empty }: { empty: boolean }) {
  // disabled until a PO number is typed; the message tells why when the field was touched
  return (
    <span title={empty ? MSG.poNumberRequired : undefined}>
      <SubmitButtonGate disabled={empty}>Close project</SubmitButtonGate>
    </span>
  );
}

function SubmitButtonGate({ disabled, children }: { disabled: boolean; children: React.ReactNode }) {
  if (disabled) return <Button type="submit" disabled>{children}</Button>;
  return <SubmitButton>{children}</SubmitButton>;
}

type ClosePoValues = v.InferOutput<typeof ClosePo>;
