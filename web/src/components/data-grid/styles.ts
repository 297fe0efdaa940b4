/** The grid kit's look, shared by the DataGrid and the EditableTable so both read as one table. */

/** A header cell: the muted band's small capitals. */
export const GRID_HEAD_CELL =
  "h-10 whitespace-nowrap px-4 text-left align-middle text-xs font-semibold uppercase tracking-wide text-muted-foreground";

/** A body row: a line under it and the hover / selected / warning tints (`.grid-row` in styles.css). */
export const GRID_ROW = "grid-row border-b transition-colors last:border-0";

/** A body cell's height and vertical padding. */
export const GRID_CELL = "h-12 py-2";
