/** A row's action menu: its actions in labelled groups, or a disabled button saying why not. */
import * as React from "react";
import { EllipsisVertical } from "lucide-react";
import { Button, DisabledButton } from "../ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../ui/dropdown-menu.tsx";
import { menuSections } from "./row-actions.ts";
import type { RowAction, RowActionEntry } from "./types.ts";

/** What the disabled row menu says to SUBSCRIBER and BDE. */
export const READ_ONLY_CHANGE_REASON = "Your role cannot change records";

export function RowMenu<T>({
  row,
  entries,
  lockedBy,
  onPick,
}: {
  row: T;
  entries: RowActionEntry<T>[];
  /** Set for a role that may not use the menu: the id of the element giving the reason. */
  lockedBy: string | null;
  onPick: (action: RowAction<T>) => void;
}) {
  const sections = menuSections(entries, row);
  if (!sections.length) return null;
  if (lockedBy) {
    return (
      <DisabledButton
        variant="ghost"
        size="icon-sm"
        aria-label="Row actions"
        reason={READ_ONLY_CHANGE_REASON}
        describedBy={lockedBy}
      >
        <EllipsisVertical />
      </DisabledButton>
    );
  }
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon-sm" aria-label="Row actions" title="Row actions">
          <EllipsisVertical />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-52">
        {sections.map((section, i) => (
          <React.Fragment key={section.label ?? `section-${i}`}>
            {i > 0 ? <DropdownMenuSeparator /> : null}
            <DropdownMenuGroup aria-label={section.label}>
              {section.label
                ? (
                  <DropdownMenuLabel className="px-2 pb-1 pt-1.5 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
                    {section.label}
                  </DropdownMenuLabel>
                )
                : null}
              {section.actions.map((a) => {
                const Icon = a.icon;
                const reason = a.disabled?.(row) || null;
                return (
                  <DropdownMenuItem
                    key={a.label}
                    destructive={a.destructive}
                    disabled={!!reason}
                    onSelect={() => onPick(a)}
                  >
                    {Icon ? <Icon /> : null}
                    {reason
                      ? (
                        <span className="flex flex-col">
                          {a.label}
                          <span className="text-xs text-muted-foreground">{reason}</span>
                        </span>
                      )
                      : a.label}
                  </DropdownMenuItem>
                );
              })}
            </DropdownMenuGroup>
          </React.Fragment>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
