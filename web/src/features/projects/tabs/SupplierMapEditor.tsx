/**
 * The Suppliers tab's Add/Update Supplier form (part 1, 5 "Supplier map"): supplier, CPI, quotas,
 * the four toggles and the five return links. Choosing a supplier already mapped loads its map (the
 * form becomes its Update); choosing a new one fills the return links with the supplier's own
 * (GET /admin/supplierMap?supplierId=), to keep or change. A link left empty falls back to the
 * supplier's own in the router.
 */
import * as React from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { SupplierMapForm } from "../../../../../shared/schemas/project.ts";
import { api } from "../../../lib/api.ts";
import {
  RETURN_URL_FIELDS,
  type ReturnUrlField,
  saveSupplierMapCall,
  SUPPLIER_MAP_DEFAULTS,
  type SupplierMapDefaults,
  supplierMapDefaultsCall,
} from "../../../../../shared/api/supplier-maps.ts";
import { notify } from "../../../lib/notify.ts";
import { Form, useSchemaForm } from "../../../components/form/form.tsx";
import { SubmitButton, TextField } from "../../../components/form/fields.tsx";
import { SwitchField } from "../../../components/form/switch-field.tsx";
import { useOptions } from "../../../components/filters/useOptions.ts";
import { SelectField } from "../../../components/form/select-field.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { SUPPLIERS } from "../../../lib/lookups.ts";
import type { SupplierMapRow } from "../projects.ts";

/** An example of each return link, as its field's placeholder. */
const EXAMPLE: Record<ReturnUrlField, string> = {
  redirectComplete: "https://panel.example/complete?sid=[sid]",
  redirectTerminate: "https://panel.example/terminate?sid=[sid]",
  redirectQuotaFull: "https://panel.example/quotafull?sid=[sid]",
  redirectQualityTerm: "https://panel.example/quality?sid=[sid]",
  redirectSurveyClose: "https://panel.example/closed?sid=[sid]",
};

/** The spec's defaults (what the supplier map's reset call answers), numbers as the text fields hold them. */
export const DEFAULTS = {
  ...SUPPLIER_MAP_DEFAULTS,
  supplierCPI: String(SUPPLIER_MAP_DEFAULTS.supplierCPI),
  supplierQuota: String(SUPPLIER_MAP_DEFAULTS.supplierQuota),
  supplierClickQuota: String(SUPPLIER_MAP_DEFAULTS.supplierClickQuota),
};

/** The server's empty map as form values (numbers as the text fields hold them). */
export function formDefaults(server: SupplierMapDefaults | undefined): typeof DEFAULTS {
  if (!server) return DEFAULTS;
  const out = { ...DEFAULTS } as Record<string, unknown>;
  for (const [k, v] of Object.entries(server)) if (k in DEFAULTS && v !== null && v !== undefined) out[k] = v;
  for (const k of ["supplierCPI", "supplierQuota", "supplierClickQuota"]) out[k] = String(out[k]);
  return out as typeof DEFAULTS;
}

function valuesOf(m: SupplierMapRow) {
  return {
    supplierId: m.supplierId,
    supplierCPI: String(m.supplierCPI),
    supplierQuota: String(m.supplierQuota),
    supplierClickQuota: String(m.supplierClickQuota),
    allowTraffic: m.allowTraffic,
    isBoarded: m.isBoarded,
    isTestLink: m.isTestLink,
    isPreScreen: m.isPreScreen,
    redirectComplete: m.redirectComplete,
    redirectTerminate: m.redirectTerminate,
    redirectQuotaFull: m.redirectQuotaFull,
    redirectQualityTerm: m.redirectQualityTerm,
    redirectSurveyClose: m.redirectSurveyClose,
  };
}

export function SupplierMapEditor({
  projectId,
  maps,
  initial,
  empty,
  disabled,
  onSaved,
  onCancel,
}: {
  projectId: string;
  maps: SupplierMapRow[];
  initial: SupplierMapRow | null;
  empty: typeof DEFAULTS;
  disabled: boolean;
  onSaved: (saved: SupplierMapRow) => Promise<void>;
  onCancel: () => void;
}) {
  const start = { projectId, ...(initial ? valuesOf(initial) : empty) };
  const form = useSchemaForm(SupplierMapForm, start);

  async function submit(values: SupplierMapForm) {
    const res = await api(saveSupplierMapCall, { body: { ...values, projectId } });
    notify.success(res.message);
    // the whole form starts again, the supplier select included, ready for the next supplier
    form.reset({ projectId, ...empty });
    await onSaved(res.result);
  }

  return (
    <Form form={form} onSubmit={submit} guardUnsaved className="flex flex-col gap-5">
      <FollowSupplier maps={maps} projectId={projectId} />
      <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
        <SupplierSelect maps={maps} />
        <TextField name="supplierCPI" label="Supplier CPI" required inputMode="decimal" autoComplete="off" />
        <TextField
          name="supplierQuota"
          label="Supplier Quota"
          required
          inputMode="numeric"
          autoComplete="off"
        />
        <TextField
          name="supplierClickQuota"
          label="Supplier Click Quota"
          required
          inputMode="numeric"
          autoComplete="off"
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <SwitchField name="allowTraffic" label="Allow traffic" />
        <SwitchField name="isBoarded" label="Boarded" />
        <SwitchField name="isTestLink" label="Test link" />
        <SwitchField name="isPreScreen" label="Pre-screen" />
      </div>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-sm font-medium">
          Redirects back to the supplier{" "}
          <span className="font-normal text-muted-foreground">
            (each must carry{" "}
            <code className="rounded bg-muted px-1">[sid]</code>; left empty, the supplier's own link is used)
          </span>
        </legend>
        <div className="grid gap-4 lg:grid-cols-2">
          {RETURN_URL_FIELDS.map((r) => (
            <TextField
              key={r.name}
              name={r.name}
              label={r.label}
              type="url"
              placeholder={EXAMPLE[r.name]}
              autoComplete="off"
              spellCheck={false}
            />
          ))}
        </div>
      </fieldset>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onCancel}>Cancel</Button>
        {disabled ? <Button disabled>Save supplier</Button> : <SaveLabel maps={maps} />}
      </div>
    </Form>
  );
}

function SupplierSelect({ maps }: { maps: SupplierMapRow[] }) {
  const { options, loading } = useOptions(SUPPLIERS);
  const mapped = new Set(maps.map((m) => m.supplierId));
  const labelled = options.map((o) => (mapped.has(o.value) ? { ...o, label: `${o.label} (mapped)` } : o));
  return (
    <SelectField
      name="supplierId"
      label="Supplier"
      required
      options={labelled}
      placeholder={loading ? "Loading suppliers…" : "Select a supplier"}
    />
  );
}

/**
 * Choosing a supplier that is already mapped loads its settings: the form becomes its Update.
 * Choosing one not mapped yet keeps what was typed, and fills each return link still empty (or
 * still the previous supplier's) with the supplier's own.
 */
function FollowSupplier({ maps, projectId }: { maps: SupplierMapRow[]; projectId: string }) {
  const { reset, getValues, setValue } = useFormContext();
  const supplierId = useWatch({ name: "supplierId" }) as string;
  const last = React.useRef(supplierId);
  // the links the previous supplier filled in: replaced by the next one's unless edited since
  const filled = React.useRef<Partial<Record<ReturnUrlField, string>>>({});
  React.useEffect(() => {
    if (supplierId === last.current) return;
    last.current = supplierId;
    const m = maps.find((x) => x.supplierId === supplierId);
    if (m) {
      reset({ projectId, ...valuesOf(m) });
      return;
    }
    if (!supplierId) return;
    api(supplierMapDefaultsCall, { query: { supplierId } }).then((res) => {
      // another supplier was chosen meanwhile
      if (last.current !== supplierId) return;
      const next: Partial<Record<ReturnUrlField, string>> = {};
      for (const { name } of RETURN_URL_FIELDS) {
        const now = String(getValues(name) ?? "");
        if (now && now !== filled.current[name]) continue;
        next[name] = res.result[name];
        setValue(name, res.result[name], { shouldDirty: true, shouldValidate: !!res.result[name] });
      }
      filled.current = next;
    }).catch(() => {
      // the API client has shown why; the links stay as they are
    });
  }, [supplierId, maps, projectId, reset, getValues, setValue]);
  return null;
}

function SaveLabel({ maps }: { maps: SupplierMapRow[] }) {
  const supplierId = useWatch({ name: "supplierId" }) as string;
  const update = maps.some((m) => m.supplierId === supplierId);
  return <SubmitButton>{update ? "Update supplier" : "Add supplier"}</SubmitButton>;
}
