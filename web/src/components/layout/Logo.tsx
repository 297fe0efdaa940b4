import { cn } from "../../lib/utils.ts";

/** The Samplex mark and word. */
export function Logo({ className, compact = false }: { className?: string; compact?: boolean }) {
  return (
    <span className={cn("inline-flex items-center gap-2 font-semibold tracking-tight", className)}>
      <svg viewBox="0 0 32 32" className="size-7 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="var(--primary)" />
        <path
          d="M21.5 11.2c-.9-1.6-2.9-2.7-5.4-2.7-3.3 0-5.6 1.8-5.6 4.3 0 5.5 10.9 3.3 10.9 7.6 0 1.5-1.6 2.6-4.6 2.6-2.4 0-4.3-1-5.2-2.7"
          fill="none"
          stroke="#fff"
          strokeWidth="2.6"
          strokeLinecap="round"
        />
      </svg>
      {compact ? <span className="sr-only">Samplex</span> : <span className="text-base">Samplex</span>}
    </span>
  );
}
