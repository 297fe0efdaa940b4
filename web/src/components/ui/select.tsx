import type { ReactNode } from "react";
import { Select as S } from "radix-ui";
import { Check, ChevronDown } from "lucide-react";
import { cn } from "../../lib/utils.ts";
import { inputClass } from "./input.tsx";

/**
 * One choice. `adornment` is shown before the label, in the list and in the closed select (a flag, an
 * icon); it is decorative (hidden from assistive technology: the option's name is its label), and
 * typing the first letters of the label still finds the option.
 */
export type Option = { value: string; label: string; adornment?: ReactNode };

/** A single-choice select. Radix forbids "" as an item value, so `value=""` means "nothing chosen" (placeholder). */
export function Select({
  value,
  onValueChange,
  options,
  placeholder = "Select",
  disabled,
  className,
  id,
  name,
  invalid,
  ariaLabel,
}: {
  value: string;
  onValueChange: (value: string) => void;
  options: Option[];
  placeholder?: string;
  disabled?: boolean;
  className?: string;
  id?: string;
  name?: string;
  invalid?: boolean;
  ariaLabel?: string;
}) {
  return (
    // always controlled: "" shows the placeholder again (undefined would leave Radix showing the last choice)
    <S.Root value={value} onValueChange={onValueChange} disabled={disabled} name={name}>
      <S.Trigger
        id={id}
        aria-label={ariaLabel}
        aria-invalid={invalid || undefined}
        className={cn(inputClass, "cursor-pointer items-center justify-between gap-2 text-left", className)}
      >
        <span className={cn("truncate", !value && "text-muted-foreground")}>
          <S.Value placeholder={placeholder} />
        </span>
        <S.Icon>
          <ChevronDown className="size-4 opacity-60" />
        </S.Icon>
      </S.Trigger>
      <S.Portal>
        <S.Content
          position="popper"
          sideOffset={4}
          className="z-50 max-h-72 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-md border bg-popover text-popover-foreground shadow-lg"
        >
          <S.Viewport className="p-1">
            {options.map((o) => (
              <S.Item
                key={o.value}
                value={o.value}
                textValue={o.label}
                className="relative flex cursor-pointer select-none items-center rounded-sm py-1.5 pl-8 pr-2 text-sm outline-none data-[disabled]:opacity-50 data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground"
              >
                <S.ItemIndicator className="absolute left-2 inline-flex">
                  <Check className="size-4" />
                </S.ItemIndicator>
                <S.ItemText>
                  {o.adornment == null ? o.label : (
                    <span className="inline-flex min-w-0 items-center gap-2">
                      <span
                        className="inline-flex shrink-0 items-center"
                        data-slot="adornment"
                        aria-hidden="true"
                      >
                        {o.adornment}
                      </span>
                      <span className="truncate">{o.label}</span>
                    </span>
                  )}
                </S.ItemText>
              </S.Item>
            ))}
          </S.Viewport>
        </S.Content>
      </S.Portal>
    </S.Root>
  );
}
