/**
 * /admin/library/category/add and /admin/library/category/:catid/edit (part 2, Library): title and
 * description are required ('Category title  is required', 'Category Description  is required');
 * after a save the categories list opens with the server's message.
 */
import { useParams } from "react-router";
import { CategoryForm } from "../../../../shared/schemas/library.ts";
import {
  addCategory,
  categoryOptionsCall,
  getCategoryCall,
  updateCategoryCall,
} from "../../../../shared/api/library.ts";
import { useSchemaForm } from "../../components/form/form.tsx";
import { RecordForm, RecordFormPage, type RecordKind } from "../../components/form/RecordFormPage.tsx";
import { TextareaField, TextField } from "../../components/form/fields.tsx";
import { SwitchField } from "../../components/form/switch-field.tsx";
import { FormSection } from "../../components/form/FormParts.tsx";
import type { CategoryRecord } from "./library.ts";

const LIST = "/admin/library";

const CATEGORY: RecordKind<typeof getCategoryCall> = {
  what: "category",
  list: { to: LIST, label: "Categories" },
  get: getCategoryCall,
  add: addCategory,
  update: updateCategoryCall,
  recordKey: (id) => ["category", id],
  pickers: [categoryOptionsCall],
  width: "max-w-3xl",
};

export default function CategoryFormPage() {
  const { catid, id: supportId } = useParams();
  return (
    <RecordFormPage
      kind={CATEGORY}
      id={catid ?? supportId}
      intro="A subject area projects are filed under."
      editIntro="Change the category's title, description or status."
    >
      {(category) => <CategoryEditor category={category} />}
    </RecordFormPage>
  );
}

function CategoryEditor({ category }: { category?: CategoryRecord }) {
  const form = useSchemaForm(CategoryForm, {
    categoryTitle: category?.categoryTitle ?? "",
    categoryDesc: category?.categoryDesc ?? "",
    isActive: category?.isActive ?? true,
  });

  return (
    <RecordForm kind={CATEGORY} form={form} record={category}>
      <FormSection
        title="Category"
        description="Fields marked * are required."
        contentClassName="sm:grid-cols-1"
      >
        <TextField name="categoryTitle" label="Title" required autoComplete="off" />
        <TextareaField name="categoryDesc" label="Description" required rows={4} />
        <SwitchField
          name="isActive"
          label="Active"
          description="Inactive categories cannot be picked for new projects."
        />
      </FormSection>
    </RecordForm>
  );
}
