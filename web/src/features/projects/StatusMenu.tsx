/**
 * The status of a project in a grid, as a menu (part 1, section 4), and the same choice as the row
 * action Edit Status opens it: a group project offers Testing, Live, Paused and Waiting other than
 * its current status, and always Closed, which asks for a PO number first (on a Closed project, to
 * correct it); child projects offer only Live and Paused (`statusMenuChoices`). A choice that stops a
 * Live project's traffic is confirmed first (`useStatusChange` in actions.tsx).
 */
import * as React from "react";
import type * as v from "valibot";
import { ChevronDown } from "lucide-react";
import { useWatch } from "react-hook-form";
import { MSG } from "../../../../shared/messages.ts";
import { ClosePo } from "../../../../shared/schemas/project.ts";
import { PROJECT_STATUS, projectStatusLabel, statusMenuChoices } from "../../../../shared/status.ts";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { SubmitButton, TextField } from "../../components/form/fields.tsx";
import { Badge, badgeVariants } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { RadioGroup, RadioGroupItem } from "../../components/ui/radio-group.tsx";
import {
  DialogClose,
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
import { closeProjectByCode } from "../../../../shared/api/projects.ts";
import { notify } from "../../lib/notify.ts";
import { cn } from "../../lib/utils.ts";
import { RowDialog } from "../../components/dialogs/RowDialog.tsx";
import { type ProjectRow, STATUS_TONES } from "./projects.ts";

export function StatusBadge({ status, label }: { status: number; label?: string }) {
  return <Badge tone={STATUS_TONES[status] ?? "neutral"}>{label ?? projectStatusLabel(status)}</Badge>;
}

type StatusProject = Pick<ProjectRow, "projectCode" | "projectStatus" | "projectStatusLabel" | "projectType">;

/** The menu's entries: the statuses set at once, and Closed (group projects), which asks a PO number. */
function choicesOf(project: StatusProject) {
  const all = statusMenuChoices(project.projectStatus, project.projectType);
  return {
    direct: all.filter((s) => s !== PROJECT_STATUS.CLOSED),
    closed: all.includes(PROJECT_STATUS.CLOSED),
  };
}

export function ProjectStatusMenu({
  project,
  disabled,
  onChange,
  onClose,
}: {
  project: StatusProject;
  disabled?: boolean;
  onChange: (status: number) => void;
  /** Closed was chosen: ask for the PO number. */
  onClose?: () => void;
}) {
  const current = project.projectStatus;
  const { direct, closed } = choicesOf(project);
  const tone = STATUS_TONES[current] ?? "neutral";
  const label = project.projectStatusLabel || projectStatusLabel(current);
  if (disabled) return <StatusBadge status={current} label={label} />;
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger
        className={cn(
          badgeVariants({ tone }),
          "cursor-pointer gap-1 pr-1.5 transition-shadow hover:shadow-sm focus-visible:ring-2 focus-visible:ring-ring",
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
        {direct.map((s) => (
          <DropdownMenuItem key={s} onSelect={() => onChange(s)}>
            <StatusDot status={s} />
            {projectStatusLabel(s)}
          </DropdownMenuItem>
        ))}
        {closed && onClose
          ? (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuItem onSelect={() => onClose()}>
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

/**
 * Edit Status (the row action): the status menu's choices in a dialog, for keyboard and screen
 * reader users who start from the row menu. A choice, then a confirm: the statuses are radios with
 * none chosen at first, and "Change status" acts only once one is chosen, so the Enter that opened
 * the dialog cannot change anything by itself. Choosing Closed hands over to the PO number dialog.
 */
export function EditStatusDialog({
  project,
  onOpenChange,
  onChange,
  onClose,
}: {
  project: StatusProject | null;
  onOpenChange: (open: boolean) => void;
  onChange: (status: number) => void;
  onClose: () => void;
}) {
  return (
    <RowDialog row={project} onClose={() => onOpenChange(false)} className="max-w-sm">
      {(p) => <EditStatusForm project={p} onChange={onChange} onClose={onClose} />}
    </RowDialog>
  );
}

function EditStatusForm({
  project,
  onChange,
  onClose,
}: {
  project: StatusProject;
  onChange: (status: number) => void;
  onClose: () => void;
}) {
  const { direct, closed } = choicesOf(project);
  const options = closed ? [...direct, PROJECT_STATUS.CLOSED] : direct;
  const [chosen, setChosen] = React.useState("");
  const id = React.useId();
  return (
    <form
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (!chosen) return;
        const status = Number(chosen);
        if (status === PROJECT_STATUS.CLOSED) onClose();
        else onChange(status);
      }}
    >
      <DialogHeader>
        <DialogTitle>Edit Status</DialogTitle>
        <DialogDescription>
          {project.projectCode} is{" "}
          {project.projectStatusLabel || projectStatusLabel(project.projectStatus)}. Choose its new status.
        </DialogDescription>
      </DialogHeader>
      <RadioGroup value={chosen} onValueChange={setChosen} aria-label="New status">
        {options.map((s) => (
          <label
            key={s}
            htmlFor={`${id}-${s}`}
            className="flex cursor-pointer items-center gap-3 rounded-md border px-3 py-2 text-sm font-medium transition-colors hover:bg-accent has-[[data-state=checked]]:border-primary has-[[data-state=checked]]:bg-primary/5"
          >
            <RadioGroupItem id={`${id}-${s}`} value={String(s)} />
            <StatusDot status={s} />
            {s === PROJECT_STATUS.CLOSED
              ? (
                <span className="flex flex-col">
                  {projectStatusLabel(s)}
                  <span className="text-xs font-normal text-muted-foreground">
                    Asks for the PO number next.
                  </span>
                </span>
              )
              : projectStatusLabel(s)}
          </label>
        ))}
      </RadioGroup>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={!chosen}>Change status</Button>
      </DialogFooter>
    </form>
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
    <RowDialog row={project} onClose={() => onOpenChange(false)} keepOnOutsideClick>
      {(p) => <CloseForm project={p} onClosed={onClosed} />}
    </RowDialog>
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
    const res = await api(closeProjectByCode, { params: { projectCode: project.projectCode }, body: values });
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
