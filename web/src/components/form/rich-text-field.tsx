/**
 * Rich text (HTML) with a formatting toolbar, bound to the form context. The editor itself is loaded
 * on first use (React.lazy), so pages without one, the sign-in page above all, never download it.
 */
import * as React from "react";
import { Controller, useFormContext } from "react-hook-form";
import { Skeleton } from "../ui/skeleton.tsx";
import { FieldShell } from "./form.tsx";

const RichTextEditor = React.lazy(() => import("./RichTextEditor.tsx"));

export function RichTextField({
  name,
  label,
  hint,
  required,
  className,
  placeholder,
  minHeight = 200,
}: {
  name: string;
  label: React.ReactNode;
  hint?: React.ReactNode;
  required?: boolean;
  className?: string;
  placeholder?: string;
  /** Height of the writing area in px (the spec's questionnaire editor is 500). */
  minHeight?: number;
}) {
  const { control } = useFormContext();
  return (
    <FieldShell name={name} label={label} hint={hint} required={required} className={className}>
      {({ id, describedBy, invalid }) => (
        <Controller
          control={control}
          name={name}
          render={({ field, formState }) => (
            <React.Suspense
              fallback={
                <div className="rounded-md border border-input" aria-busy="true" aria-label="Loading editor">
                  <div className="border-b bg-muted/40 px-2 py-1.5">
                    <Skeleton className="h-6 w-64" />
                  </div>
                  <div className="p-3" style={{ minHeight }}>
                    <Skeleton className="h-4 w-2/3" />
                  </div>
                </div>
              }
            >
              <RichTextEditor
                id={id}
                value={typeof field.value === "string" ? field.value : ""}
                onChange={field.onChange}
                onBlur={field.onBlur}
                placeholder={placeholder}
                minHeight={minHeight}
                invalid={invalid}
                describedBy={describedBy}
                ariaLabel={typeof label === "string" ? label : undefined}
                disabled={formState.isSubmitting}
              />
            </React.Suspense>
          )}
        />
      )}
    </FieldShell>
  );
}
