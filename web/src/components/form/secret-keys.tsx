/**
 * Keys a record answers masked (last 4 characters): their owners (the roles of the reveal call) get
 * a "Show keys" button that fetches them whole through that explicit, logged call; form fields still
 * showing the mask then show the key, without making the form dirty (the mask sent back means
 * "unchanged" to the server anyway).
 */
import * as React from "react";
import { Eye } from "lucide-react";
import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import type { Role } from "../../../../shared/roles.ts";
import { isMasked } from "../../../../shared/secrets.ts";
import { useMayCall } from "../../lib/auth.ts";
import type { AnyContract, ResultOf } from "../../../../shared/api/contract.ts";
import { api } from "../../lib/api.ts";
import { Button } from "../ui/button.tsx";

export type SecretKeys<T> = {
  /** Whether the signed-in role may reveal them (and there is a record to reveal). */
  allowed: boolean;
  keys: T | null;
  busy: boolean;
  /** Fetches the keys once (later calls answer the same), null when refused or failed. */
  reveal: () => Promise<T | null>;
};

export function useSecretKeys<T extends Record<string, string>, F extends FieldValues>(opts: {
  roles: readonly Role[];
  /** The reveal call for this record; null for a new record (nothing to reveal yet). */
  fetchKeys: (() => Promise<T>) | null;
  /** The form whose fields named like the keys get them when revealed (while still masked). */
  form?: UseFormReturn<F, unknown, unknown>;
}): SecretKeys<T> {
  const allowed = useMayCall(opts.roles) && !!opts.fetchKeys;
  const [keys, setKeys] = React.useState<T | null>(null);
  const [busy, setBusy] = React.useState(false);
  const { fetchKeys, form } = opts;
  const reveal = React.useCallback(async () => {
    if (keys) return keys;
    if (!fetchKeys) return null;
    setBusy(true);
    try {
      const k = await fetchKeys();
      setKeys(k);
      if (form) {
        for (const [name, value] of Object.entries(k)) {
          const field = name as Path<F>;
          if (isMasked(form.getValues(field) as string)) {
            form.resetField(field, { defaultValue: value as never });
          }
        }
      }
      return k;
    } catch {
      return null; // the API client has shown the server's message
    } finally {
      setBusy(false);
    }
  }, [keys, fetchKeys, form]);
  return { allowed, keys, busy, reveal };
}

/**
 * The keys of a record on its edit form: `reveal` is the record's reveal call (by `:id`, e.g.
 * revealClientKeysCall), allowed to that call's roles; nothing to reveal on the add form (no id).
 */
export function useRecordKeys<C extends AnyContract, F extends FieldValues>(
  reveal: C,
  id: string | undefined,
  form: UseFormReturn<F, unknown, unknown>,
): SecretKeys<ResultOf<C>> {
  const fetchKeys = React.useMemo(
    () => id ? async () => (await api(reveal, { params: { id } } as never)).result as ResultOf<C> : null,
    [reveal, id],
  );
  return useSecretKeys<ResultOf<C> & Record<string, string>, F>({
    roles: reveal.roles,
    fetchKeys: fetchKeys as (() => Promise<ResultOf<C> & Record<string, string>>) | null,
    form,
  });
}

/** The "Show keys" button of a form section holding masked keys; nothing for other roles. */
export function ShowKeysButton({ secret }: { secret: SecretKeys<Record<string, string>> }) {
  if (!secret.allowed) return null;
  return (
    <div className="flex items-center gap-2 sm:col-span-2">
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={secret.busy || !!secret.keys}
        onClick={() => void secret.reveal()}
      >
        <Eye /> {secret.keys ? "Keys shown" : "Show keys"}
      </Button>
      <span className="text-xs text-muted-foreground">
        {secret.keys
          ? "Shown whole on this page only; the reveal is in the system log."
          : "Keys are shown masked (last 4 characters)."}
      </span>
    </div>
  );
}
