/**
 * /admin/library/rule/add and /admin/library/rule/:ruleid/edit (part 2, Library): a band of supplier
 * CPI ('Minimun CPI  is required', 'Maximum CPI  is required'); the list opens after a save.
 */
import { useSaveRecord } from "../../lib/save-record.ts";
import { useParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { SupplierRuleForm } from "../../../../shared/schemas/library.ts";
import { api } from "../../lib/api.ts";
import {
  addSupplierRule,
  type CategoryOption,
  categoryOptionsCall,
  getSupplierRuleCall,
  updateSupplierRuleCall,
} from "../../../../shared/api/library.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { TextField } from "../../components/form/fields.tsx";
import { SwitchField } from "../../components/form/switch-field.tsx";
import { useOptions } from "../../components/filters/useOptions.ts";
import {
  BackLink,
  FormActions,
  FormSection,
  LoadedRecord,
  quietNotFound,
} from "../../components/form/FormParts.tsx";
import type { SupplierRuleRecord } from "./library.ts";

const LIST = "/admin/library/rule";

export default function RuleFormPage() {
  const { ruleid: id } = useParams();
  const rule = useQuery({
    queryKey: ["supplier-rule", id],
    enabled: !!id,
    queryFn: async ({ signal }) =>
      (await api(getSupplierRuleCall, { params: { id: id! } }, { signal, quiet: quietNotFound })).result,
  });
  return (
    <>
      <PageHeader
        title={id ? "Edit Supplier Rule" : "Add Supplier Rule"}
        description="The CPI band a supplier is paid within."
        back={<BackLink to={LIST}>Supplier Rules</BackLink>}
      />
      {!id ? <RuleEditor /> : (
        <LoadedRecord
          query={rule}
          what="rule"
          list={{ to: LIST, label: "Supplier Rules" }}
          loadingLabel="Loading supplier rule"
          className="max-w-3xl"
        >
          {(rule) => <RuleEditor rule={rule} />}
        </LoadedRecord>
      )}
    </>
  );
}

function RuleEditor({ rule }: { rule?: SupplierRuleRecord }) {
  const form = useSchemaForm(SupplierRuleForm, {
    minSupplierCpi: rule ? String(rule.minSupplierCpi) : "",
    maxSupplierCpi: rule ? String(rule.maxSupplierCpi) : "",
    categoryTitle: rule?.categoryTitle ?? "",
    isActive: rule?.isActive ?? true,
  });
  const categories = useOptions({
    call: categoryOptionsCall,
    map: (c: CategoryOption) => ({
      value: String(c.categoryTitle ?? c.label ?? ""),
      label: String(c.categoryTitle ?? c.label ?? ""),
    }),
  });

  const save = useSaveRecord<SupplierRuleRecord>({
    add: addSupplierRule,
    update: updateSupplierRuleCall,
    recordKey: (id) => ["supplier-rule", id],
    back: LIST,
  });
  const submit = (values: SupplierRuleForm) => save(values, rule?._id);

  return (
    <Form form={form} onSubmit={submit} guardUnsaved className="flex max-w-3xl flex-col gap-5">
      <FormSection title="Supplier rule" description="Fields marked * are required.">
        <TextField
          name="minSupplierCpi"
          label="Minimum CPI ($)"
          required
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
        />
        <TextField
          name="maxSupplierCpi"
          label="Maximum CPI ($)"
          required
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.00"
        />
        <TextField
          name="categoryTitle"
          label="Category"
          list="rule-categories"
          autoComplete="off"
          hint="Optional: the kind of work this band applies to."
          className="sm:col-span-2"
        />
        <datalist id="rule-categories">
          {categories.options.map((o) => <option key={o.value} value={o.value} />)}
        </datalist>
        <SwitchField name="isActive" label="Active" className="sm:col-span-2" />
      </FormSection>
      <FormActions cancelTo={LIST} submitLabel={rule ? "Save changes" : "Create rule"} />
    </Form>
  );
}
