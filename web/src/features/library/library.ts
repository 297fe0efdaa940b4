/** Library area (part 2, Library): its tab strip and the grids over the lists of shared/api/library.ts. */
import { canOpenScreen } from "../../../../shared/permissions.ts";
import type { QuestionOption, QuestionType } from "../../../../shared/schemas/library.ts";
import {
  categoriesList as categories,
  type CategoryRecord,
  type QualificationOptionRecord as StoredQualificationOption,
  type SupplierRuleRecord,
  supplierRulesList as supplierRules,
} from "../../../../shared/api/library.ts";
import type { ListDecl } from "../../components/data-grid/types.ts";
import type { PageTab } from "../../components/layout/PageHeader.tsx";
import { useAuth } from "../../lib/auth.ts";

export type {
  CategoryRecord,
  QualificationRecord,
  QuestionRecord,
  SupplierRuleRecord,
} from "../../../../shared/api/library.ts";

/** The tab strip; a role sees only the tabs it may open (MANAGER: Categories). */
const LIBRARY_TABS: PageTab[] = [
  { label: "Categories", to: "/admin/library" },
  { label: "Questions", to: "/admin/library/question" },
  { label: "Supplier Rules", to: "/admin/library/rule" },
  { label: "Qualfications", to: "/admin/library/qualification" },
];

export function useLibraryTabs(): PageTab[] {
  const role = useAuth((s) => s.admin?.role);
  return role ? LIBRARY_TABS.filter((t) => canOpenScreen(role, t.to)) : [];
}

export const LIBRARY_DESCRIPTION =
  "Reusable building blocks of projects: categories, questions, rules and qualifications.";

// ---------------------------------------------------------------- categories

export const categoriesList: ListDecl<CategoryRecord> = {
  list: categories,
  rowId: (c) => c._id,
  defaultPageSize: 10,
  filters: [
    { kind: "search", placeholder: "Search categories" },
    { kind: "status" },
    { kind: "export" },
  ],
};

// ---------------------------------------------------------------- supplier rules

export const supplierRulesList: ListDecl<SupplierRuleRecord> = {
  list: supplierRules,
  rowId: (r) => r._id,
  defaultPageSize: 10,
  filters: [
    { kind: "status" },
    { kind: "search", placeholder: "Search rules" },
    { kind: "export" },
  ],
};

// ---------------------------------------------------------------- questions

/** An answer option as the question form edits it (a new one has no id yet). */
export type QuestionOptionRecord = QuestionOption;

/** The cache key of the temporary questions (list and forms share it). */
export const TEMP_QUESTIONS_KEY = ["questions", "temp"] as const;

export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  TEXT: "Text",
  RADIO: "Radio",
  DROPDOWN: "Dropdown",
  CHECKBOX: "Checkbox",
  MAP: "Map",
};

// ---------------------------------------------------------------- qualifications

/** An option as the qualification form edits it (a new one has no id yet). */
export type QualificationOptionRecord = Omit<StoredQualificationOption, "_id"> & { _id?: string };
