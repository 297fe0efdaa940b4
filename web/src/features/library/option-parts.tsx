/**
 * The pieces of an option row that questions and qualifications share: the option's text with its
 * own message, and the remove button that keeps at least MIN_OPTIONS_KEPT options.
 */
import { useFormContext } from "react-hook-form";
import { Trash2 } from "lucide-react";
import { FieldMessage, useFieldError } from "../../components/form/form.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Input } from "../../components/ui/input.tsx";
import { cn } from "../../lib/utils.ts";

/** An option can be removed only while there are at least this many. */
export const MIN_OPTIONS_KEPT = 3;

/** The text of option `index` (field `name`), labelled "Option N", with its message under it. */
export function OptionTextInput(
  { name, id, index, className, inputClassName }: {
    name: string;
    id: string;
    index: number;
    className?: string;
    inputClassName?: string;
  },
) {
  const { register } = useFormContext();
  const error = useFieldError(name);
  return (
    <div className={cn("flex flex-col gap-1", className)}>
      <Input
        id={id}
        placeholder={`Option ${index + 1}`}
        aria-label={`Option ${index + 1}`}
        aria-invalid={!!error || undefined}
        aria-describedby={error ? `${id}-message` : undefined}
        autoComplete="off"
        className={inputClassName}
        {...register(name)}
      />
      <FieldMessage id={`${id}-message`} message={error} />
    </div>
  );
}

/** The quota of option `index` (field `name`), with its message (a quota that is not a number of 0 or more). */
export function OptionQuotaInput({ name, id, index }: { name: string; id: string; index: number }) {
  const { register } = useFormContext();
  const error = useFieldError(name);
  return (
    <div className="flex flex-col gap-1">
      <label className="flex items-center gap-1.5 text-xs">
        Quota
        <Input
          id={id}
          className="h-9 w-20"
          inputMode="numeric"
          aria-label={`Quota of option ${index + 1}`}
          aria-invalid={!!error || undefined}
          aria-describedby={error ? `${id}-message` : undefined}
          {...register(name)}
        />
      </label>
      <FieldMessage id={`${id}-message`} message={error} />
    </div>
  );
}

/** Removes option `index`; disabled (with the reason) while only MIN_OPTIONS_KEPT options are left. */
export function RemoveOptionButton(
  { index, count, onRemove, size = "icon" }: {
    index: number;
    count: number;
    onRemove: () => void;
    size?: "icon" | "icon-sm";
  },
) {
  const canRemove = count >= MIN_OPTIONS_KEPT;
  return (
    <Button
      type="button"
      variant="ghost"
      size={size}
      className="text-destructive hover:bg-destructive/10 hover:text-destructive"
      disabled={!canRemove}
      aria-label={`Remove option ${index + 1}`}
      title={canRemove ? "Remove" : `At least ${MIN_OPTIONS_KEPT} options are needed to remove one`}
      onClick={onRemove}
    >
      <Trash2 />
    </Button>
  );
}
