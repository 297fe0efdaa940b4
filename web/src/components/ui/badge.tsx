import * as React from "react";
import { cva, type VariantProps } from "class-variance-authority";
import { cn } from "../../lib/utils.ts";

export const badgeVariants = cva(
  "inline-flex items-center gap-1 whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-medium",
  {
    variants: {
      tone: {
        neutral: "border-border bg-secondary text-secondary-foreground",
        primary: "border-primary/20 bg-primary/10 text-primary",
        green: "border-emerald-200 bg-emerald-50 text-emerald-700",
        blue: "border-sky-200 bg-sky-50 text-sky-700",
        amber: "border-amber-200 bg-amber-50 text-amber-800",
        violet: "border-violet-200 bg-violet-50 text-violet-700",
        red: "border-red-200 bg-red-50 text-red-700",
        slate: "border-slate-200 bg-slate-100 text-slate-700",
        zinc: "border-zinc-200 bg-zinc-100 text-zinc-600",
        orange: "border-orange-200 bg-orange-50 text-orange-700",
        cyan: "border-cyan-200 bg-cyan-50 text-cyan-700",
        pink: "border-pink-200 bg-pink-50 text-pink-700",
      },
    },
    defaultVariants: { tone: "neutral" },
  },
);

export type BadgeTone = NonNullable<VariantProps<typeof badgeVariants>["tone"]>;

export function Badge(
  { className, tone, ...props }: React.ComponentProps<"span"> & VariantProps<typeof badgeVariants>,
) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}
