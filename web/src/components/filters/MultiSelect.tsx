/** A multi-select with 'Select All' toggling all or none; menu max height 224 and width 250. */
import * as React from "react";
import { ChevronDown } from "lucide-react";
import { Popover, PopoverContent, PopoverTrigger } from "../ui/popover.tsx";
import { Checkbox } from "../ui/checkbox.tsx";
import { Input, inputClass } from "../ui/input.tsx";
import type { Option } from "../ui/select.tsx";
import { cn } from "../../lib/utils.ts";
import { Spinner } from "../ui/spinner.tsx";

export function MultiSelect({
  label,
  options,
  value,
  onChange,
  loading,
  className,
  id,
  placeholder,
  disabled,
  invalid,
}: {
  label: string;
  options: Option[];
  value: string[];
  onChange: (value: string[]) => void;
  loading?: boolean;
  className?: string;
  /** For a form field: the trigger's id (its label points at it), the empty text, states. */
  id?: string;
  placeholder?: string;
  disabled?: boolean;
  invalid?: boolean;
}) {
  const [filter, setFilter] = React.useState("");
  const chosen = new Set(value);
  const allChosen = options.length > 0 && options.every((o) => chosen.has(o.value));
  const someChosen = !allChosen && options.some((o) => chosen.has(o.value));
  const shown = filter
    ? options.filter((o) => o.label.toLowerCase().includes(filter.trim().toLowerCase()))
    : options;
  const summary = value.length === 0
    ? placeholder ?? label
    : value.length === 1
    ? options.find((o) => o.value === value[0])?.label ?? label
    : `${label}: ${value.length}`;

  // the button's name holds its visible text (WCAG 2.5.3): "Provider: Logit", or the summary itself
  const named = summary.toLowerCase().includes(label.toLowerCase()) ? summary : `${label}: ${summary}`;

  function toggle(v: string, on: boolean) {
    onChange(on ? [...value.filter((x) => x !== v), v] : value.filter((x) => x !== v));
  }

  return (
    <Popover onOpenChange={(open) => !open && setFilter("")}>
      <PopoverTrigger
        id={id}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        className={cn(
          inputClass,
          "w-auto min-w-36 max-w-60 cursor-pointer items-center justify-between gap-2",
          className,
        )}
        aria-label={named}
      >
        <span className={cn("truncate", value.length === 0 && "text-muted-foreground")}>{summary}</span>
        <ChevronDown className="size-4 shrink-0 opacity-60" />
      </PopoverTrigger>
      <PopoverContent className="w-[250px] p-1">
        {options.length > 8
          ? (
            <div className="p-1">
              <Input
                aria-label={`Find ${label}`}
                placeholder="Find…"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                className="h-8"
              />
            </div>
          )
          : null}
        {loading
          ? (
            <div className="flex items-center gap-2 px-2 py-3 text-muted-foreground">
              <Spinner /> Loading…
            </div>
          )
          : options.length === 0
          ? <p className="px-2 py-3 text-muted-foreground">No options yet</p>
          : (
            <div role="group" aria-label={label} className="max-h-[224px] overflow-y-auto">
              <OptionRow
                label="Select All"
                checked={allChosen ? true : someChosen ? "indeterminate" : false}
                onChange={(on) => onChange(on ? options.map((o) => o.value) : [])}
                strong
              />
              {shown.map((o) => (
                <OptionRow
                  key={o.value}
                  label={o.label}
                  checked={chosen.has(o.value)}
                  onChange={(on) => toggle(o.value, on)}
                />
              ))}
            </div>
          )}
      </PopoverContent>
    </Popover>
  );
}

function OptionRow({
  label,
  checked,
  onChange,
  strong,
}: {
  label: string;
  checked: boolean | "indeterminate";
  onChange: (on: boolean) => void;
  strong?: boolean;
}) {
  const id = React.useId();
  return (
    <div
      className={cn("flex items-center gap-2 rounded-sm px-2 py-1.5 hover:bg-accent", strong && "border-b")}
    >
      <Checkbox
        id={id}
        checked={checked}
        onCheckedChange={(c) => onChange(c === true || checked === "indeterminate")}
      />
      <label htmlFor={id} className={cn("flex-1 cursor-pointer truncate", strong && "font-medium")}>
        {label}
      </label>
    </div>
  );
}
