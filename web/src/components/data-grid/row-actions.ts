/** The row menu's logic, without React: which sections a row shows and what a confirmation says. */
import type { ReactNode } from "react";
import type { ConfirmSpec, RowAction, RowActionEntry, RowActionGroup } from "./types.ts";

/** One block of the menu: an optional label, then its actions; blocks are separated. */
export type MenuSection<T> = { label?: string; actions: RowAction<T>[] };

export function isActionGroup<T>(e: RowActionEntry<T>): e is RowActionGroup<T> {
  return "actions" in e;
}

/**
 * The sections of one row's menu, in declaration order: consecutive plain actions form one
 * unlabelled section, each group its own; hidden actions and sections left empty are dropped.
 */
export function menuSections<T>(entries: readonly RowActionEntry<T>[], row: T): MenuSection<T>[] {
  const sections: MenuSection<T>[] = [];
  let loose: MenuSection<T> | null = null;
  for (const e of entries) {
    if (isActionGroup(e)) {
      loose = null;
      sections.push({ label: e.label, actions: e.actions.filter((a) => !a.hidden?.(row)) });
    } else if (!e.hidden?.(row)) {
      if (!loose) {
        loose = { actions: [] };
        sections.push(loose);
      }
      loose.actions.push(e);
    }
  }
  return sections.filter((s) => s.actions.length > 0);
}

/** The confirmation of an action for a row (title 'Are you sure?' unless the action says otherwise). */
export function confirmFor<T>(
  action: RowAction<T>,
  row: T,
): Omit<ConfirmSpec<T>, "description"> & { description?: ReactNode } {
  const spec: ConfirmSpec<T> = typeof action.confirm === "object" ? action.confirm : {};
  const { description, ...rest } = spec;
  return { ...rest, description: typeof description === "function" ? description(row) : description };
}
