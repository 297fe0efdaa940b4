/**
 * /admin/library/category/add and /admin/library/category/:catid/edit (part 2, Library): title and
 * description are required ('Category title  is required', 'Category Description  is required');
 * after a save the categories list opens with the server's message.
 */
import { useSaveRecord } from "../../lib/save-record.ts";
import { useParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { CategoryForm } from "../../../../shared/schemas/library.ts";
import { api } from "../../lib/api.ts";
import {
  addCategory,
  categoryOptionsCall,
  getCategoryCall,
  updateCategoryCall,
} from "../../../../shared/api/library.ts";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { Form, useSchemaForm } from "../../components/form/form.tsx";
import { TextareaField, TextField } from "../../components/form/fields.tsx";
import { SwitchField } from "../../components/form/switch-field.tsx";
import {
  BackLink,
  FormActions,
  FormSection,
  LoadedRecord,
  quietNotFound,
} from "../../components/form/FormParts.tsx";
import type { CategoryRecord } from "./library.ts";

const LIST = "/admin/library";

export default function CategoryFormPage() {
  const { catid, id: supportId } = useParams();
  const id = catid ?? supportId;
  const category = useQuery({
    queryKey: ["category", id],
    enabled: !!id,
    queryFn: async ({ signal }) =>
      (await api(getCategoryCall, { params: { id: id! } }, { signal, quiet: quietNotFound })).result,
  });
  return (
    <>
      <PageHeader
        title={id ? "Edit Category" : "Add Category"}
        description={id
          ? category.isError ? undefined : "Change the category's title, description or status."
          : "A subject area projects are filed under."}
        back={<BackLink to={LIST}>Categories</BackLink>}
      />
      {!id ? <CategoryEditor /> : (
        <LoadedRecord
          query={category}
          what="category"
          list={{ to: LIST, label: "Categories" }}
          className="max-w-3xl"
        >
          {(category) => <CategoryEditor category={category} />}
        </LoadedRecord>
      )}
    </>
  );
}

function CategoryEditor({ category }: { category?: CategoryRecord }) {
  const form = useSchemaForm(CategoryForm, {
    categoryTitle: category?.categoryTitle ?? "",
    categoryDesc: category?.categoryDesc ?? "",
    isActive: category?.isActive ?? true,
  });

  const save = useSaveRecord<CategoryRecord>({
    add: addCategory,
    update: updateCategoryCall,
    recordKey: (id) => ["category", id],
    back: LIST,
    pickers: [categoryOptionsCall],
  });
  const submit = (values: CategoryForm) => save(values, category?._id);

  return (
    <Form form={form} onSubmit={submit} guardUnsaved className="flex max-w-3xl flex-col gap-5">
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
      <FormActions cancelTo={LIST} submitLabel={category ? "Save changes" : "Create category"} />
    </Form>
  );
}
