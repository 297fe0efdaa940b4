/**
 * /admin/supplier/add and /admin/supplier/:supplierid/edit (part 1, 2.8 and 5): every Supplier field
 * in sections, validated by the shared SupplierForm schema (its required messages and 'Invalid Url'
 * for a redirect without the [sid] placeholder). Edit loads the supplier by id and shows the form
 * once loaded; after a save the list opens with the server's message.
 */
import { useParams } from "react-router";
import { SUPPLIER_NET_DAYS, SUPPLIER_TYPES, SupplierForm } from "../../../../shared/schemas/supplier.ts";
import { useSchemaForm } from "../../components/form/form.tsx";
import {
  RecordForm,
  RecordFormPage,
  type RecordKind,
  valuesFrom,
} from "../../components/form/RecordFormPage.tsx";
import { TextareaField, TextField } from "../../components/form/fields.tsx";
import { SelectField } from "../../components/form/select-field.tsx";
import { SwitchField } from "../../components/form/switch-field.tsx";
import { CopyField, FormSection } from "../../components/form/FormParts.tsx";
import { CountryField, LookupMultiField } from "../../components/form/lookup-fields.tsx";
import { CLIENTS } from "../../lib/lookups.ts";
import type { SupplierRecord } from "./suppliers.ts";
import {
  addSupplier,
  getSupplierCall,
  revealSupplierKeysCall,
  supplierOptionsCall,
  updateSupplierCall,
} from "../../../../shared/api/suppliers.ts";
import { ShowKeysButton, useRecordKeys } from "../../components/form/secret-keys.tsx";
import { TriangleAlert } from "lucide-react";
import { formatDateTime } from "../../lib/format.ts";
import { api, callKey } from "../../lib/api.ts";
import {
  createSupplierApiKeyCall,
  listSupplierApiKeysCall,
  renameSupplierApiKeyCall,
  revokeSupplierApiKeyCall,
} from "../../../../shared/api/supplier-api-keys.ts";
import { type ApiKeyCalls, ApiKeysPanel } from "./ApiKeysPanel.tsx";
import { EraseMemberButton } from "./ProfilesDialog.tsx";
import { type CallbackCalls, CallbacksPanel } from "./CallbacksPanel.tsx";
import { CALLBACK_URL_FIELDS } from "./CallbackUrlsCard.tsx";
import {
  redeliverSupplierCallbackCall,
  supplierCallbacksList,
} from "../../../../shared/api/supplier-callbacks.ts";

const LIST = "/admin/supplier";

const TYPES = SUPPLIER_TYPES.map((t) => ({ value: String(t.value), label: t.label }));
const NET_DAYS = SUPPLIER_NET_DAYS.map((d) => ({ value: String(d), label: `${d} days` }));

/** The five redirects back to the supplier, each with the shape a user can copy. */
const REDIRECTS = [
  { name: "redirectComplete", label: "Complete", example: "https://panel.example/complete?sid=[sid]" },
  { name: "redirectTerminate", label: "Terminate", example: "https://panel.example/terminate?sid=[sid]" },
  { name: "redirectQuotaFull", label: "Over Quota", example: "https://panel.example/quotafull?sid=[sid]" },
  { name: "redirectQualityTerm", label: "Quality Term", example: "https://panel.example/quality?sid=[sid]" },
  { name: "redirectSurveyClose", label: "Survey Close", example: "https://panel.example/closed?sid=[sid]" },
] as const;

const EMPTY = {
  supplierType: "" as string | number,
  supplierName: "",
  supplierShortCode: "",
  supplierPhoneNumber: "",
  supplierEmail: "",
  supplierWebsite: "",
  countryId: "",
  city: "",
  state: "",
  company: "",
  address1: "",
  address2: "",
  zipCode: "",
  netDays: "30" as string | number,
  apiClientId: "",
  hashKey: "",
  supplierPanelSize: "" as string | number | null,
  supplierRuleCPI: "",
  apiBody: "",
  apiKey: "",
  apiUrl: "",
  apiHeader: "",
  variableMapping: "",
  identifierMapping: "",
  redirectComplete: "",
  redirectQuotaFull: "",
  redirectTerminate: "",
  redirectQualityTerm: "",
  redirectSurveyClose: "",
  clientId: [] as string[],
  isEmailNotification: true,
  isPreScreen: false,
  allowRouting: false,
  supplierApprovedHook: "",
  callbackTerminate: "",
  callbackOverQuota: "",
  callbackQualityTerm: "",
  callbackReconcile: "",
  isActive: true,
};
type Values = typeof EMPTY;

function valuesOf(s: SupplierRecord): Values {
  const out = valuesFrom(EMPTY, s) as Record<string, unknown>;
  out.supplierType = String(s.supplierType ?? "");
  out.netDays = String(s.netDays ?? 30);
  out.supplierPanelSize = s.supplierPanelSize == null ? "" : String(s.supplierPanelSize);
  return out as Values;
}

const SUPPLIER: RecordKind<typeof getSupplierCall> = {
  what: "supplier",
  list: { to: LIST, label: "Suppliers" },
  get: getSupplierCall,
  add: addSupplier,
  update: updateSupplierCall,
  recordKey: (id) => ["supplier", id],
  pickers: [supplierOptionsCall],
};

export default function SupplierFormPage() {
  const { supplierid: id } = useParams();
  return (
    <RecordFormPage
      kind={SUPPLIER}
      id={id}
      intro="A panel that sends respondents: contact, terms, where respondents return to."
      describe={(s) => `${s.supplierName} · ${s.supplierShortCode}`}
    >
      {(supplier) => (
        <>
          <SupplierEditor supplier={supplier} />
          {supplier
            ? (
              <div className="mt-4 flex justify-end">
                <EraseMemberButton supplierId={supplier._id} />
              </div>
            )
            : null}
          {/* outside the supplier's form: its dialogs' forms are not part of the supplier's save */}
          {supplier ? <ApiKeysPanel calls={staffKeyCalls(supplier._id)} className="mt-6 max-w-4xl" /> : null}
          {supplier ? <CallbacksPanel calls={staffCallbackCalls(supplier._id)} className="mt-6" /> : null}
        </>
      )}
    </RecordFormPage>
  );
}

/** The staff's calls for one supplier's callbacks. */
function staffCallbackCalls(id: string): CallbackCalls {
  return {
    list: supplierCallbacksList,
    params: { id },
    redeliver: (callbackId) => api(redeliverSupplierCallbackCall, { params: { id, callbackId } }),
  };
}

/** The staff's calls for one supplier's API keys. */
function staffKeyCalls(id: string): ApiKeyCalls {
  return {
    key: callKey(listSupplierApiKeysCall, id),
    list: () => api(listSupplierApiKeysCall, { params: { id } }),
    create: (body) => api(createSupplierApiKeyCall, { params: { id }, body }),
    rename: (keyId, body) => api(renameSupplierApiKeyCall, { params: { id, keyId }, body }),
    revoke: (keyId) => api(revokeSupplierApiKeyCall, { params: { id, keyId } }),
  };
}

function SupplierEditor({ supplier }: { supplier?: SupplierRecord }) {
  const form = useSchemaForm(SupplierForm, supplier ? valuesOf(supplier) : EMPTY);
  const secret = useRecordKeys(revealSupplierKeysCall, supplier?._id, form as never);

  return (
    <RecordForm kind={SUPPLIER} form={form} record={supplier}>
      <FormSection title="Supplier" description="Fields marked * are required.">
        <SelectField
          name="supplierType"
          label="Supplier type"
          required
          options={TYPES}
          placeholder="Select a type"
        />
        <TextField name="supplierName" label="Supplier name" required autoComplete="off" />
        <TextField
          name="supplierShortCode"
          label="Short code"
          required
          autoComplete="off"
          hint="Letters, digits, - and _; unique among suppliers."
        />
        <TextField name="supplierEmail" label="Email" type="email" required autoComplete="off" />
        <TextField name="supplierPhoneNumber" label="Phone number" type="tel" autoComplete="off" />
        <TextField
          name="supplierWebsite"
          label="Website"
          type="url"
          placeholder="https://"
          autoComplete="off"
        />
        <TextField name="company" label="Company" autoComplete="off" />
        <TextField
          name="supplierPanelSize"
          label="Panel size"
          inputMode="numeric"
          autoComplete="off"
          hint="Members in the panel."
        />
        <SwitchField
          name="isActive"
          label="Active"
          description="Inactive suppliers are left out of pickers and bulk e-mail."
          className="sm:col-span-2"
        />
      </FormSection>

      <FormSection title="Address">
        <CountryField />
        <TextField name="state" label="State" autoComplete="off" />
        <TextField name="city" label="City" autoComplete="off" />
        <TextField name="zipCode" label="Zip code" autoComplete="off" />
        <TextField name="address1" label="Address line 1" autoComplete="off" />
        <TextField name="address2" label="Address line 2" autoComplete="off" />
      </FormSection>

      <FormSection title="Terms" description="Payment terms and the CPI steps this supplier accepts.">
        <SelectField name="netDays" label="Net days" options={NET_DAYS} />
        <TextField
          name="supplierRuleCPI"
          label="Supplier rule CPI"
          required
          autoComplete="off"
          placeholder="2.5|3.4|4|6"
          hint="CPI values separated by |, for example 2.5|3.4|4|6."
        />
        <LookupMultiField
          name="clientId"
          label="Clients"
          source={CLIENTS}
          placeholder="Select clients"
          hint="Clients whose projects this supplier may work on."
          className="sm:col-span-2"
        />
      </FormSection>

      <FormSection
        title="Redirects"
        description={
          <>
            Where respondents go back to after the survey. Each address must carry the supplier's respondent
            id placeholder <code className="rounded bg-muted px-1">[sid]</code>, for example{" "}
            <code className="rounded bg-muted px-1">https://panel.example/complete?sid=[sid]</code>.
          </>
        }
      >
        {REDIRECTS.map((r) => (
          <TextField
            key={r.name}
            name={r.name}
            label={r.label}
            type="url"
            placeholder={r.example}
            autoComplete="off"
            spellCheck={false}
            className="sm:col-span-2"
          />
        ))}
      </FormSection>

      <FormSection
        title="Callbacks"
        description="Signed calls to the supplier's server at each outcome and reconcile change (hash key, headers, body and variable mapping of the API section apply)."
      >
        {CALLBACK_URL_FIELDS.map((f) => (
          <TextField
            key={f.name}
            name={f.name}
            label={f.name === "supplierApprovedHook" ? "Approved hook" : `${f.label} callback`}
            type="url"
            placeholder="https://"
            autoComplete="off"
            spellCheck={false}
            hint={f.name === "supplierApprovedHook"
              ? "Called at each complete and when completes are approved."
              : f.hint}
            className="sm:col-span-2"
          />
        ))}
        <HookRefusal supplier={supplier} />
      </FormSection>

      <FormSection title="Notifications and screening">
        <SwitchField
          name="isEmailNotification"
          label="E-mail notifications"
          description="Receives project and bulk e-mails."
        />
        <SwitchField
          name="isPreScreen"
          label="Pre-screen"
          description="Respondents answer pre-screen questions."
        />
        <SwitchField
          name="allowRouting"
          label="Routing"
          description="Refused respondents are offered the next survey they qualify for."
        />
      </FormSection>

      <FormSection title="API" description="How this supplier's system talks to ours.">
        <ShowKeysButton secret={secret} />
        <CopyField
          label="Supplier API key"
          value={secret.keys?.supplierApiKey ?? supplier?.supplierApiKey ?? ""}
          resolve={secret.allowed ? async () => (await secret.reveal())?.supplierApiKey ?? null : undefined}
          className="sm:col-span-2"
          hint="Read-only. The keys that open the supply API are managed under API keys below."
        />
        <TextField name="apiClientId" label="API client id" autoComplete="off" spellCheck={false} />
        <TextField name="hashKey" label="Hash key" autoComplete="off" spellCheck={false} />
        <TextField
          name="apiUrl"
          label="API URL"
          type="url"
          placeholder="https://"
          autoComplete="off"
          className="sm:col-span-2"
        />
        <TextField
          name="apiKey"
          label="Secret key"
          autoComplete="off"
          spellCheck={false}
          className="sm:col-span-2"
        />
        <TextareaField name="apiHeader" label="Headers" rows={4} spellCheck={false} />
        <TextareaField name="apiBody" label="Body" rows={4} spellCheck={false} />
      </FormSection>

      <FormSection title="Mappings" description="How this supplier's variables and identifiers map to ours.">
        <TextareaField
          name="variableMapping"
          label="Variable mapping"
          rows={10}
          spellCheck={false}
          className="sm:col-span-2"
        />
        <TextareaField
          name="identifierMapping"
          label="Identifier mapping"
          rows={10}
          spellCheck={false}
          className="sm:col-span-2"
        />
      </FormSection>
    </RecordForm>
  );
}

/**
 * The approved hook's state: when the server refused to call it (an internal address, a port it does
 * not call), why and since when, until a delivery goes through or the hook is changed.
 */
function HookRefusal({ supplier }: { supplier?: SupplierRecord }) {
  if (!supplier?.approvedHookRefusal) return null;
  return (
    <div
      className="flex gap-2 rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm sm:col-span-2"
      role="status"
      data-testid="hook-refusal"
    >
      <TriangleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
      <div>
        <p className="font-medium">
          Not called since {formatDateTime(supplier.approvedHookRefusedAt)}: the server refused this hook.
        </p>
        <p className="text-muted-foreground">{supplier.approvedHookRefusal}</p>
      </div>
    </div>
  );
}
