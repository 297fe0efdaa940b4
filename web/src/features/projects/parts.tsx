/** Small pieces the project screens share: link lists, figures, how a dialog names its project. */
import { cn } from "../../lib/utils.ts";
import { CopyButton } from "../../components/display/CopyButton.tsx";
import type { ReturnLink } from "./projects.ts";

/** A label and a URL in code type with a copy button, one per line. */
export function LinkList({ links, className }: { links: ReturnLink[]; className?: string }) {
  return (
    <ul className={cn("flex flex-col gap-2", className)}>
      {links.map((l) => (
        <li key={l.label} className="flex items-start gap-2">
          <div className="min-w-0 flex-1">
            <p className="text-xs font-medium text-muted-foreground">{l.label}</p>
            <code className="block break-all rounded bg-muted px-1.5 py-1 text-xs">{l.url}</code>
          </div>
          <CopyButton text={l.url} label={`${l.label} link`} className="mt-4" />
        </li>
      ))}
    </ul>
  );
}

/** A percent for figures, or a dash before there is anything to divide. */
export function pct(n: number | null): string {
  return n === null ? "–" : `${n}%`;
}

/** "P00012 · Brand tracker": how a dialog names its project. */
export const subtitle = (p: { projectCode: string; projectName: string }) =>
  `${p.projectCode} · ${p.projectName}`;
