import type { ReactNode } from "react";
import { Link } from "react-router";
import { Plus } from "lucide-react";
import { Button, DisabledButton } from "../ui/button.tsx";
import { useCanEdit } from "./DataGrid.tsx";

export const READ_ONLY_ADD_REASON = "Your role cannot add records";

/** A list header's New button; disabled, visibly and with its reason, for SUBSCRIBER and BDE (part 1, 2.4). */
export function NewButton({ to, children }: { to: string; children: ReactNode }) {
  const canEdit = useCanEdit();
  if (!canEdit) {
    return (
      <DisabledButton reason={READ_ONLY_ADD_REASON}>
        <Plus /> {children}
      </DisabledButton>
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
