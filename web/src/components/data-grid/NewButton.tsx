import type { ReactNode } from "react";
import { Link } from "react-router";
import { Plus } from "lucide-react";
import { Button } from "../ui/button.tsx";
import { useCanEdit } from "./DataGrid.tsx";

/** A list header's New button; disabled for SUBSCRIBER and BDE (part 1, 2.4). */
export function NewButton({ to, children }: { to: string; children: ReactNode }) {
  const canEdit = useCanEdit();
  if (!canEdit) {
    return (
      <Button disabled title="Your role cannot add records">
        <Plus /> {children}
      </Button>
    );
  }
  return (
    <Button asChild>
      <Link to={to}>
        <Plus /> {children}
      </Link>
    </Button>
  );
}
