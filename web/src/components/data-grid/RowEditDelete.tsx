/** A table row's Edit and Delete icon buttons, named after the row ("Edit Gender", "Delete Gender"). */
import { Pencil, Trash2 } from "lucide-react";
import { Button } from "../ui/button.tsx";

export function RowEditDelete({ name, disabled, onEdit, onDelete }: {
  /** What the row is called, for the buttons' accessible names. */
  name: string;
  disabled?: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <>
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label={`Edit ${name}`}
        title="Edit"
        disabled={disabled}
        onClick={onEdit}
      >
        <Pencil />
      </Button>
      <Button
        variant="ghost"
        size="icon-sm"
        className="text-destructive hover:bg-destructive/10 hover:text-destructive"
        aria-label={`Delete ${name}`}
        title="Delete"
        disabled={disabled}
        onClick={onDelete}
      >
        <Trash2 />
      </Button>
    </>
  );
}
