/** Declarations of the list kit: a list is its API path, its filters and its columns. */
import type { ReactNode } from "react";
import type { LucideIcon } from "lucide-react";
import type { Option } from "../ui/select.tsx";
import type { AnyContract } from "../../../../shared/api/contract.ts";
import type { ListDeclaration } from "../../../../shared/list.ts";

export type FilterValue = string | number | boolean | null | (string | number)[];

/** Where a select's options come from: a lookup call (its body or query); a 404 means "none yet". */
export type OptionsSource = {
  call: AnyContract;
  body?: unknown;
  query?: Record<string, string>;
  params?: Record<string, string>;
  // deno-lint-ignore no-explicit-any
  map?: (raw: any) => Option;
};

/** Every filter kind of the shared toolbar (part 1, 2.5). */
export type FilterDecl<F extends string = string> =
  /**
   * Free text, debounced 500 ms, resets the page. URL `q`. Keep the placeholder short enough for
   * the box (about 26 characters); `hint` says what is searched, as the box's tooltip.
   */
  | { kind: "search"; placeholder?: string; hint?: string }
  /** One value per line, sent as filter.multiSearch. URL `lines`. */
  | { kind: "multiSearch"; label?: string; placeholder?: string }
  /** Single or multiple choice sent as filter[key]; multi-selects have 'Select All'. */
  | {
    kind: "select";
    key: F;
    label: string;
    multiple?: boolean;
    options?: Option[];
    source?: OptionsSource;
    /** Send values as numbers (status codes, sort keys). */
    numeric?: boolean;
    /**
     * Applies while the URL does not name the filter (a fresh page, after Reset); choosing none
     * writes the key empty (`?key=`), so "none" is a shareable state too.
     */
    defaultValue?: string | string[];
  }
  /** Active flag: any / true / false, sent as body.status. URL `status`. */
  | { kind: "status"; label?: string }
  /** Today=1, Last 7 Days=2, This Month=3, sent as filter[key] (default sortDate). */
  | { kind: "sortBy"; key?: string; label?: string }
  /** Min and max date (dd/MM/yyyy on screen, yyyy-MM-dd in the body); max never before min. */
  | { kind: "dateRange"; minKey?: string; maxKey?: string }
  /** CSV of all matching rows: the same body POSTed to `<path>?format=csv`. */
  | { kind: "export"; label?: string }
  /** Redirect URLs from the list metadata (post-back, notify). */
  | { kind: "links"; metadataKey: string; label: string };

export type ListDecl<T, F extends string = string> = {
  /** The list as declared in shared/api: its call, filter keys and CSV columns. */
  list: ListDeclaration<T, F>;
  /** Names the list in caches and the exported file (the declaration's id unless told). */
  id?: string;
  rowId: (row: T) => string;
  defaultPageSize?: number;
  pageSizes?: readonly number[];
  /** URL parameter of the page number (external offers use `p`). */
  pageParam?: string;
  filters?: FilterDecl<F>[];
  /** Path parameters of the declared list call (e.g. `{ id: parentId }` of a project's children). */
  params?: Record<string, string>;
  /** Filter values always sent (for example a parent project id). */
  fixedFilter?: Partial<Record<F, FilterValue>>;
  exportName?: string;
};

export type GridColumn<T> = {
  /** Also the sort its header asks for, when the list declares a sort of that name (see `sort`). */
  id: string;
  header: ReactNode;
  /** The column's name in the column chooser (the header when it is text). */
  label?: string;
  /** The declared sort the header orders by when it is not the id; false: never sortable. */
  sort?: string | false;
  /** Hidden until the user shows it in the column chooser (less used columns on wide grids). */
  hidden?: boolean;
  cell: (row: T) => ReactNode;
  className?: string;
  headerClassName?: string;
  align?: "left" | "right" | "center";
};

export type ConfirmSpec<T = never> = {
  title?: string;
  /** A fixed line, or one built from the row so the dialog names the record it acts on. */
  description?: ReactNode | ((row: T) => ReactNode);
  confirmLabel?: string;
  cancelLabel?: string;
};

export type RowAction<T> = {
  label: string;
  icon?: LucideIcon;
  onSelect: (row: T) => unknown | Promise<unknown>;
  /** Ask first ('Are you sure?' with No / Yes unless told otherwise). */
  confirm?: boolean | ConfirmSpec<T>;
  destructive?: boolean;
  hidden?: (row: T) => boolean;
  /** Shown but unavailable for this row: returns the short reason, shown under the label. */
  disabled?: (row: T) => string | false | null | undefined;
};

/**
 * A run of related row actions: the menu shows the label (when given) above them and a separator
 * between groups; a group whose actions are all hidden for the row is left out with its separator.
 */
export type RowActionGroup<T> = { label?: string; actions: RowAction<T>[] };

/** What a grid's row menu is declared with: plain actions, groups, or both. */
export type RowActionEntry<T> = RowAction<T> | RowActionGroup<T>;
