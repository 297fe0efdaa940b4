/** A dd/MM/yyyy text field with a calendar button (the browser's own picker); value is yyyy-MM-dd. */
import * as React from "react";
import { CalendarDays } from "lucide-react";
import { isoDayToDisplay, parseDisplayDate } from "../../lib/format.ts";
import { Input } from "../ui/input.tsx";
import { cn } from "../../lib/utils.ts";

export function DateInput({
  id,
  label,
  value,
  onChange,
  min,
  max,
  invalid,
  describedBy,
  className,
}: {
  /** For a visible `<label htmlFor>`; the box is named by `label` either way. */
  id?: string;
  label: string;
  value: string;
  onChange: (iso: string) => void;
  min?: string;
  max?: string;
  invalid?: boolean;
  describedBy?: string;
  className?: string;
}) {
  const [text, setText] = React.useState(isoDayToDisplay(value));
  const [bad, setBad] = React.useState(false);
  const picker = React.useRef<HTMLInputElement>(null);

  React.useEffect(() => {
    setText(isoDayToDisplay(value));
    setBad(false);
  }, [value]);

  function commit(raw: string) {
    if (raw.trim() === "") {
      setBad(false);
      if (value) onChange("");
      return;
    }
    // a typed day outside min..max is passed on: the screen says why it refuses it (a range's order)
    const iso = parseDisplayDate(raw);
    setBad(!iso);
    if (iso && iso !== value) onChange(iso);
  }

  return (
    <div className={cn("relative w-40", className)}>
      <Input
        id={id}
        aria-label={label}
        placeholder="dd/MM/yyyy"
        inputMode="numeric"
        value={text}
        aria-invalid={invalid || bad || undefined}
        aria-describedby={describedBy}
        title={bad ? "Use the format dd/MM/yyyy" : undefined}
        onChange={(e) => setText(e.target.value)}
        onBlur={(e) => commit(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            commit(e.currentTarget.value);
          }
        }}
        className="pr-9"
      />
      <button
        type="button"
        className="absolute inset-y-0 right-0 flex w-9 cursor-pointer items-center justify-center rounded-r-md text-muted-foreground hover:text-foreground focus-visible:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
        aria-label={`Pick ${label}`}
        onClick={() => {
          const el = picker.current;
          if (!el) return;
          try {
            el.showPicker();
          } catch {
            el.focus();
          }
        }}
      >
        <CalendarDays className="size-4" />
      </button>
      <input
        ref={picker}
        type="date"
        tabIndex={-1}
        aria-hidden="true"
        className="pointer-events-none absolute bottom-0 right-0 h-0 w-0 opacity-0"
        value={value}
        min={min}
        max={max}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
