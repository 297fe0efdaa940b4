/** A copy button for a value shown beside it: the check mark shows for 1000 ms (part 1, section 9). */
import { Check, Copy } from "lucide-react";
import { useCopyMark } from "../../lib/clipboard.ts";
import { notify } from "../../lib/notify.ts";
import { Button } from "../ui/button.tsx";

/** Copies `text`; the check mark shows for 1000 ms (part 1, section 9). */
export function CopyButton({ text, label, className }: { text: string; label: string; className?: string }) {
  const { copied, copy } = useCopyMark();
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon-sm"
      className={className}
      aria-label={copied ? "Copied" : `Copy ${label}`}
      title={copied ? "Copied" : `Copy ${label}`}
      onClick={async () => {
        if (!(await copy(text))) notify.error("Could not copy to the clipboard");
      }}
    >
      {copied ? <Check className="text-success" /> : <Copy />}
    </Button>
  );
}
