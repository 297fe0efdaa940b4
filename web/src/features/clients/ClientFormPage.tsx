/**
 * /admin/client/add and /admin/client/:id/edit (part 1, 2.7 and 5): every Client field in sections,
 * validated by the shared ClientForm schema ('Client name  is required', 'Country is required');
 * after a save the list opens with the server's message.
 */
import { CLIENT_API_HELP } from "../../../../shared/client-api.ts";
import { useParams } from "react-router";
import { useWatch } from "react-hook-form";
import { CLIENT_NET_DAYS, ClientForm } from "../../../../shared/schemas/client.ts";
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
import { CountryField, LookupMultiField, LookupSelectField } from "../../components/form/lookup-fields.tsx";
import { BDE_USERS, SUPPLIERS } from "../../lib/lookups.ts";
import type { ClientRecord } from "./clients.ts";
import {
  addClient,
  type ClientKeys,
  clientOptionsCall,
  getClientCall,
  revealClientKeysCall,
  updateClientCall,
} from "../../../../shared/api/clients.ts";
import { type SecretKeys, ShowKeysButton, useRecordKeys } from "../../components/form/secret-keys.tsx";

const LIST = "/admin/client";

const MAPPING_EXAMPLE = ["rid=[uid]", "panelist=[sid]"].join("\n");
const HELP = CLIENT_API_HELP;

const NET_DAYS = CLIENT_NET_DAYS.map((d) => ({ value: String(d), label: `${d} days` }));

/** The form's keys with what a new client starts from. */
const EMPTY = {
  clientName: "",
  clientCode: "",
  clientContactName: "",
  clientPhoneNumber: "",
  clientEmail: "",
  clientWebsite: "",
  countryId: "",
  city: "",
  state: "",
  company: "",
  taxId: "",
  address1: "",
  address2: "",
  zipCode: "",
  netDays: "30" as string | number,
  wolfAccount: "",
  isApiIntegration: false,
  isScreenUrlIntegration: false,
  apiUrl: "",
  apiKey: "",
  apiHeader: "",
  apiFunctionHeader: "",
  apiBody: "",
  apiResponseVar: "",
  apiFunction: "",
  apiParams: "",
  variableMapping: "",
  identifierMapping: "",
  supplierId: [] as string[],
  assignedTo: "" as string | null,
  isActive: true,
};
type Values = typeof EMPTY;

function valuesOf(c: ClientRecord): Values {
  const out = valuesFrom(EMPTY, c) as Record<string, unknown>;
  out.netDays = String(c.netDays ?? 30);
  out.assignedTo = c.assignedTo ?? "";
  return out as Values;
}

const CLIENT: RecordKind<typeof getClientCall> = {
  what: "client",
  list: { to: LIST, label: "Clients" },
  get: getClientCall,
  add: addClient,
  update: updateClientCall,
  recordKey: (id) => ["client", id],
  pickers: [clientOptionsCall],
};

export default function ClientFormPage() {
  const { id } = useParams();
  return (
    <RecordFormPage
      kind={CLIENT}
      id={id}
      intro="A buyer of completes: contact, address, billing terms and integration."
      describe={(c) => `${c.clientName} · ${c.clientCode}`}
    >
      {(client) => <ClientEditor client={client} />}
    </RecordFormPage>
  );
}

function ClientEditor({ client }: { client?: ClientRecord }) {
  const form = useSchemaForm(ClientForm, client ? valuesOf(client) : EMPTY);
  const secret = useRecordKeys(revealClientKeysCall, client?._id, form as never);

  return (
    <RecordForm kind={CLIENT} form={form} record={client}>
      <FormSection title="Client" description="Fields marked * are required.">
        <TextField name="clientName" label="Client name" required autoComplete="off" />
        <TextField
          name="clientCode"
          label="Client code"
          autoComplete="off"
          hint={client ? undefined : "Leave empty to get the next code (CL0001, CL0002, …)."}
        />
        <TextField name="clientContactName" label="Contact name" autoComplete="off" />
        <TextField name="company" label="Company" autoComplete="off" />
        <TextField
          name="taxId"
          label="Tax ID"
          autoComplete="off"
          hint="VAT, GSTIN, EIN…: printed on its invoices."
        />
        <TextField name="clientEmail" label="Email" type="email" autoComplete="off" />
        <TextField name="clientPhoneNumber" label="Phone number" type="tel" autoComplete="off" />
        <TextField
          name="clientWebsite"
          label="Website"
          type="url"
          placeholder="https://"
          autoComplete="off"
        />
        <LookupSelectField
          name="assignedTo"
          label="Assigned To"
          source={BDE_USERS}
          noneLabel="Not assigned"
          current={client?.assignedTo
            ? { value: client.assignedTo, label: client.assignedToName }
            : undefined}
          hint="A business development user."
        />
        <SwitchField
          name="isActive"
          label="Active"
          description="Inactive clients are left out of pickers for new work."
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

      <FormSection title="Billing" description="How invoices to this client are issued.">
        <SelectField name="netDays" label="Net days" options={NET_DAYS} />
        <TextField
          name="wolfAccount"
          label="Invoicing account"
          autoComplete="off"
          hint="wcanada invoices from the Canadian entity."
        />
      </FormSection>

      <FormSection title="Suppliers" description="Suppliers that may work on this client's projects.">
        <LookupMultiField
          name="supplierId"
          label="Suppliers"
          source={SUPPLIERS}
          placeholder="Select suppliers"
          className="sm:col-span-2"
        />
      </FormSection>

      <ApiSection clientApiKey={client?.clientApiKey ?? ""} secret={secret} />

      <FormSection
        title="Mappings"
        description="How this client's variables and respondent identifiers map to ours, one per line."
      >
        <TextareaField
          name="variableMapping"
          label="Variable mapping"
          rows={10}
          spellCheck={false}
          className="sm:col-span-2"
          placeholder={MAPPING_EXAMPLE}
          hint={HELP.variableMapping}
        />
        <TextareaField
          name="identifierMapping"
          label="Identifier mapping"
          rows={10}
          spellCheck={false}
          className="sm:col-span-2"
          placeholder="token=data.respondentId"
          hint={HELP.identifierMapping}
        />
      </FormSection>
    </RecordForm>
  );
}

/** The client's API key, and the integration fields when the integration is on. */
function ApiSection({ clientApiKey, secret }: { clientApiKey: string; secret: SecretKeys<ClientKeys> }) {
  const on = useWatch({ name: "isApiIntegration" }) as boolean;
  return (
    <FormSection
      title="API integration"
      description="Connect the client's system: where to call it and how to read its answers."
    >
      <ShowKeysButton secret={secret} />
      <CopyField
        label="Client API key"
        value={secret.keys?.clientApiKey ?? clientApiKey}
        resolve={secret.allowed ? async () => (await secret.reveal())?.clientApiKey ?? null : undefined}
        className="sm:col-span-2"
        hint="Read-only: the key this client uses to call us."
      />
      <SwitchField
        name="isApiIntegration"
        label="API integration"
        description={HELP.isApiIntegration}
      />
      <SwitchField
        name="isScreenUrlIntegration"
        label="Screen URL integration"
        description={HELP.isScreenUrlIntegration}
      />
      {on
        ? (
          <>
            <TextField
              name="apiUrl"
              label="API URL"
              type="url"
              placeholder="https://"
              autoComplete="off"
              className="sm:col-span-2"
              hint={HELP.apiUrl}
            />
            <TextField
              name="apiKey"
              label="API key"
              autoComplete="off"
              spellCheck={false}
              hint={HELP.apiKey}
            />
            <TextField name="apiFunction" label="API function" autoComplete="off" hint={HELP.apiFunction} />
            <TextField
              name="apiResponseVar"
              label="Response variable"
              autoComplete="off"
              placeholder="data.surveyLink"
              hint={HELP.apiResponseVar}
            />
            <TextField
              name="apiParams"
              label="Parameters"
              autoComplete="off"
              spellCheck={false}
              placeholder="country=US&lang=en"
              hint={HELP.apiParams}
            />
            <TextareaField
              name="apiHeader"
              label="Headers"
              rows={4}
              spellCheck={false}
              hint={HELP.apiHeader}
            />
            <TextareaField
              name="apiFunctionHeader"
              label="Function headers"
              rows={4}
              spellCheck={false}
              hint={HELP.apiFunctionHeader}
            />
            <TextareaField
              name="apiBody"
              label="Body"
              rows={6}
              spellCheck={false}
              className="sm:col-span-2"
              hint={HELP.apiBody}
            />
          </>
        )
        : null}
    </FormSection>
  );
}
