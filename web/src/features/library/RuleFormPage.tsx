/**
 * /admin/library/rule/add and /admin/library/rule/:ruleid/edit (part 2, Library): a band of supplier
 * CPI ('Minimun CPI  is required', 'Maximum CPI  is required'); the list opens after a save.
 */
import { useParams } from "react-router";
import { SupplierRuleForm } from "../../../../shared/schemas/library.ts";
import {
  addSupplierRule,
  type CategoryOption,
  categoryOptionsCall,
  getSupplierRuleCall,
  updateSupplierRuleCall,
} from "../../../../shared/api/library.ts";
import { useSchemaForm } from "../../components/form/form.tsx";
import { RecordForm, RecordFormPage, type RecordKind } from "../../components/form/RecordFormPage.tsx";
import { TextField } from "../../components/form/fields.tsx";
import { SwitchField } from "../../components/form/switch-field.tsx";
import { useOptions } from "../../components/filters/useOptions.ts";
import { FormSection } from "../../components/form/FormParts.tsx";
import type { SupplierRuleRecord } from "./library.ts";

const LIST = "/admin/library/rule";

const RULE: RecordKind<typeof getSupplierRuleCall> = {
  what: "rule",
  title: "Supplier Rule",
  list: { to: LIST, label: "Supplier Rules" },
  get: getSupplierRuleCall,
  add: addSupplierRule,
  update: updateSupplierRuleCall,
  recordKey: (id) => ["supplier-rule", id],
  loadingLabel: "Loading supplier rule",
  width: "max-w-3xl",
};

export default function RuleFormPage() {
  const { ruleid: id } = useParams();
  return (
    <RecordFormPage kind={RULE} id={id} intro="The CPI band a supplier is paid within.">
      {(rule) => <RuleEditor rule={rule} />}
    </RecordFormPage>
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

  return (
    <RecordForm kind={RULE} form={form} record={rule}>
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
    </RecordForm>
  );
}
