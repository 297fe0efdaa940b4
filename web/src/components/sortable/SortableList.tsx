/**
 * A vertical list the user can reorder: drag by the handle (mouse or touch), or from the keyboard
 * (focus the handle, Space to pick up, arrow keys to move, Space to drop, Escape to cancel), or with
 * the move up / move down buttons each row gets. dnd-kit does the dragging and its screen-reader
 * announcements. Used for library questions and qualification options, later pre-screen questions.
 */
import * as React from "react";
import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { ArrowDown, ArrowUp, GripVertical } from "lucide-react";
import { cn } from "../../lib/utils.ts";

export { arrayMove };

export type SortableRow = {
  index: number;
  count: number;
  /** The drag handle (a button: drag it, or Space and arrow keys). */
  handle: React.ReactNode;
  /** Move up / move down buttons, disabled at the ends. */
  moveButtons: React.ReactNode;
  dragging: boolean;
};

export function SortableList<T>({
  items,
  getId,
  itemLabel,
  onMove,
  renderItem,
  disabled = false,
  className,
  itemClassName,
  ariaLabel,
  as = "list",
  itemProps,
}: {
  items: T[];
  getId: (item: T) => string;
  /** Names an item in button labels and announcements ("Move {label} up"). */
  itemLabel: (item: T, index: number) => string;
  /** Called with the old and new index once an item is dropped or moved by a button. */
  onMove: (from: number, to: number) => void;
  renderItem: (item: T, row: SortableRow) => React.ReactNode;
  disabled?: boolean;
  className?: string;
  itemClassName?: string;
  ariaLabel?: string;
  /** "rows": a table body whose items are rows (the EditableTable), instead of an ordered list. */
  as?: "list" | "rows";
  /** Extra attributes of an item's element. */
  itemProps?: (item: T) => React.HTMLAttributes<HTMLElement>;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = React.useMemo(() => items.map(getId), [items, getId]);
  const labelOf = React.useCallback(
    (id: string | number) => {
      const i = ids.indexOf(String(id));
      return i >= 0 ? itemLabel(items[i], i) : String(id);
    },
    [ids, items, itemLabel],
  );

  function onDragEnd(e: DragEndEvent) {
    if (!e.over || e.active.id === e.over.id) return;
    const from = ids.indexOf(String(e.active.id));
    const to = ids.indexOf(String(e.over.id));
    if (from >= 0 && to >= 0) onMove(from, to);
  }

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        screenReaderInstructions: {
          draggable:
            "To pick up an item, press Space or Enter. Use the arrow keys to move it, Space or Enter again to drop it, Escape to cancel.",
        },
        announcements: {
          onDragStart: ({ active }) => `Picked up ${labelOf(active.id)}.`,
          onDragOver: ({ active, over }) =>
            over
              ? `${labelOf(active.id)} is now at position ${
                ids.indexOf(String(over.id)) + 1
              } of ${ids.length}.`
              : `${labelOf(active.id)} is no longer over the list.`,
          onDragEnd: ({ active, over }) =>
            over
              ? `${labelOf(active.id)} was dropped at position ${
                ids.indexOf(String(over.id)) + 1
              } of ${ids.length}.`
              : `${labelOf(active.id)} was dropped.`,
          onDragCancel: ({ active }) => `Moving ${labelOf(active.id)} was cancelled.`,
        },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy} disabled={disabled}>
        {React.createElement(
          as === "rows" ? "tbody" : "ol",
          {
            className: as === "rows" ? className : cn("flex flex-col gap-2", className),
            "aria-label": as === "rows" ? undefined : ariaLabel,
          },
          items.map((item, index) => (
            <SortableItem
              key={ids[index]}
              id={ids[index]}
              index={index}
              count={items.length}
              label={itemLabel(item, index)}
              disabled={disabled}
              className={itemClassName}
              onMove={onMove}
              element={as === "rows" ? "tr" : "li"}
              extra={itemProps?.(item)}
            >
              {(row) => renderItem(item, row)}
            </SortableItem>
          )),
        )}
      </SortableContext>
    </DndContext>
  );
}

function SortableItem({
  id,
  index,
  count,
  label,
  disabled,
  className,
  onMove,
  element,
  extra,
  children,
}: {
  element: "li" | "tr";
  extra?: React.HTMLAttributes<HTMLElement>;
  id: string;
  index: number;
  count: number;
  label: string;
  disabled: boolean;
  className?: string;
  onMove: (from: number, to: number) => void;
  children: (row: SortableRow) => React.ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id, disabled });
  const style: React.CSSProperties = {
    transform: CSS.Translate.toString(transform),
    transition,
  };
  const handle = (
    <button
      type="button"
      ref={setActivatorNodeRef}
      {...attributes}
      {...listeners}
      aria-label={`Drag ${label}`}
      title="Drag to reorder"
      disabled={disabled}
      className="grid size-8 shrink-0 cursor-grab touch-none place-items-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring active:cursor-grabbing disabled:cursor-not-allowed disabled:opacity-40"
    >
      <GripVertical className="size-4" />
    </button>
  );
  const moveButtons = (
    <div className="flex items-center">
      <MoveButton
        label={`Move ${label} up`}
        disabled={disabled || index === 0}
        onClick={() => onMove(index, index - 1)}
      >
        <ArrowUp />
      </MoveButton>
      <MoveButton
        label={`Move ${label} down`}
        disabled={disabled || index === count - 1}
        onClick={() => onMove(index, index + 1)}
      >
        <ArrowDown />
      </MoveButton>
    </div>
  );
  return React.createElement(
    element,
    {
      ...extra,
      ref: setNodeRef,
      style: { ...extra?.style, ...style },
      "data-sortable-id": id,
      className: cn(
        "relative",
        isDragging && "z-10 shadow-lg ring-2 ring-primary/30",
        className,
        extra?.className,
      ),
    },
    children({ index, count, handle, moveButtons, dragging: isDragging }),
  );
}

function MoveButton(
  { label, disabled, onClick, children }: {
    label: string;
    disabled: boolean;
    onClick: () => void;
    children: React.ReactNode;
  },
) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      className="grid size-8 cursor-pointer place-items-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-30 [&_svg]:size-4"
    >
      {children}
    </button>
  );
}
