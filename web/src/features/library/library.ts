/** Library area (part 2, Library): its tab strip, list declarations and record shapes. */
import { canOpenScreen } from "../../../../shared/permissions.ts";
import type { QuestionType } from "../../../../shared/schemas/library.ts";
import type { ListDecl } from "../../components/data-grid/types.ts";
import type { PageTab } from "../../components/layout/PageHeader.tsx";
import { useAuth } from "../../lib/auth.ts";

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

export type CategoryRow = {
  _id: string;
  categoryTitle: string;
  categoryDesc: string;
  isActive: boolean;
  createdAt: string;
};

export const categoriesList: ListDecl<CategoryRow> = {
  id: "categories",
  path: "/admin/categories",
  rowId: (c) => c._id,
  defaultPageSize: 10,
  filters: [
    { kind: "search", placeholder: "Search categories" },
    { kind: "status" },
    { kind: "export" },
  ],
  exportName: "categories",
};

// ---------------------------------------------------------------- supplier rules

export type SupplierRuleRow = {
  _id: string;
  minSupplierCpi: number;
  maxSupplierCpi: number;
  categoryTitle: string;
  isActive: boolean;
  createdAt: string;
};

export const supplierRulesList: ListDecl<SupplierRuleRow> = {
  id: "supplier-rules",
  path: "/admin/supplier/rules/data",
  rowId: (r) => r._id,
  defaultPageSize: 10,
  filters: [
    { kind: "status" },
    { kind: "search", placeholder: "Search rules" },
    { kind: "export" },
  ],
  exportName: "supplier-rules",
};

// ---------------------------------------------------------------- questions

export type QuestionOptionRecord = {
  _id?: string;
  title: string;
  enable: boolean;
  formvalidate: boolean;
  diy: boolean;
  local: boolean;
  quota: number;
};

export type QuestionRecord = {
  _id: string;
  languageId: string;
  questionTitle: Record<string, string>;
  title: string;
  questionType: QuestionType;
  questionOption: QuestionOptionRecord[];
  sortOrder: number;
  isActive: boolean;
};

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

export type QualificationOptionRecord = { _id?: string; text: string; subText: string; isActive: boolean };

export type QualificationRecord = {
  _id: string;
  qualificationName: string;
  qualificationKey: string;
  qualificationIcon: string;
  qualificationOptions: QualificationOptionRecord[];
  isActive: boolean;
};
