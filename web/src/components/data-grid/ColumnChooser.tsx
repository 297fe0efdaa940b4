/**
 * Which columns a grid shows, chosen by each user: a column may start hidden (`GridColumn.hidden`,
 * for the less used ones that would push the important ones off screen), and the user's choice is
 * kept in this browser per user and per list (localStorage `samplex.columns.<user id>.<list id>`),
 * so it survives a reload and another user of the same browser keeps theirs.
 */
import * as React from "react";
import { Columns3 } from "lucide-react";
import { useAuth } from "../../lib/auth.ts";
import { Button } from "../ui/button.tsx";
import { Checkbox } from "../ui/checkbox.tsx";
import { Popover, PopoverContent, PopoverTrigger } from "../ui/popover.tsx";
import type { GridColumn } from "./types.ts";

/** A column's choice that differs from its default: id -> shown. */
type Choices = Record<string, boolean>;

export const columnsStorageKey = (userId: string, listId: string) => `samplex.columns.${userId}.${listId}`;

function readChoices(key: string | null): Choices {
  if (!key) return {};
  try {
    const raw = JSON.parse(localStorage.getItem(key) ?? "{}");
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) return {};
    return Object.fromEntries(Object.entries(raw).filter(([, v]) => typeof v === "boolean")) as Choices;
  } catch {
    return {};
  }
}

/** What a column's header is called in the chooser. */
export const columnLabel = <T,>(col: GridColumn<T>) =>
  col.label ?? (typeof col.header === "string" ? col.header : col.id);

export function useColumnChoice<T>(listId: string, columns: GridColumn<T>[]) {
  const userId = useAuth((s) => s.admin?._id ?? null);
  const key = userId ? columnsStorageKey(userId, listId) : null;
  const [choices, setChoices] = React.useState<Choices>(() => readChoices(key));
  React.useEffect(() => setChoices(readChoices(key)), [key]);

  const isShown = React.useCallback(
    (col: GridColumn<T>) => choices[col.id] ?? !col.hidden,
    [choices],
  );
  const setShown = React.useCallback((col: GridColumn<T>, shown: boolean) => {
    setChoices((prev) => {
      const next = { ...prev };
      if (shown === !col.hidden) delete next[col.id];
      else next[col.id] = shown;
      if (key) {
        if (Object.keys(next).length) localStorage.setItem(key, JSON.stringify(next));
        else localStorage.removeItem(key);
      }
      return next;
    });
  }, [key]);
  const reset = React.useCallback(() => {
    if (key) localStorage.removeItem(key);
    setChoices({});
  }, [key]);

  const visible = React.useMemo(() => columns.filter(isShown), [columns, isShown]);
  const changed = Object.keys(choices).length > 0;
  return React.useMemo(
    () => ({ visible, isShown, setShown, reset, changed }),
    [visible, isShown, setShown, reset, changed],
  );
}

export type ColumnChoice<T> = ReturnType<typeof useColumnChoice<T>>;

/** The grid's columns and the user's choice, for the chooser in the grid's header (no remount on a change). */
export const ColumnChoiceContext = React.createContext<
  { columns: GridColumn<unknown>[]; choice: ColumnChoice<unknown> } | null
>(null);

/** The chooser: a checkbox per column; the last shown column cannot be hidden. */
export function ColumnChooser() {
  const ctx = React.useContext(ColumnChoiceContext);
  if (!ctx) return null;
  return <ChooserPopover columns={ctx.columns} choice={ctx.choice} />;
}

function ChooserPopover<T>({ columns, choice }: { columns: GridColumn<T>[]; choice: ColumnChoice<T> }) {
  const id = React.useId();
  const shownCount = choice.visible.length;
  const hiddenCount = columns.length - shownCount;
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={hiddenCount ? `Columns (${hiddenCount} hidden)` : "Columns"}
          title="Choose columns"
          data-testid="column-chooser"
          className="relative"
        >
          <Columns3 />
          {hiddenCount
            ? (
              <span
                className="absolute right-0.5 top-0.5 size-1.5 rounded-full bg-primary"
                aria-hidden="true"
              />
            )
            : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="flex w-60 flex-col gap-1 p-2">
        <p className="px-1 pb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
          Columns
        </p>
        <ul className="flex max-h-80 flex-col overflow-y-auto">
          {columns.map((col) => {
            const shown = choice.isShown(col);
            const boxId = `${id}-${col.id}`;
            return (
              <li key={col.id} className="flex items-center gap-2 rounded-sm px-1 py-1 hover:bg-muted">
                <Checkbox
                  id={boxId}
                  checked={shown}
                  disabled={shown && shownCount === 1}
                  onCheckedChange={(c) => choice.setShown(col, c === true)}
                />
                <label htmlFor={boxId} className="flex-1 cursor-pointer text-sm normal-case tracking-normal">
                  {columnLabel(col)}
                </label>
              </li>
            );
          })}
        </ul>
        {choice.changed
          ? (
            <Button variant="ghost" size="sm" className="mt-1 self-start" onClick={choice.reset}>
              Reset to default
            </Button>
          )
          : null}
      </PopoverContent>
    </Popover>
  );
}
