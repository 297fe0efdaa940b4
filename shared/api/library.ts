/**
 * Library (part 2, 7 "Library"): categories, temporary questions, qualifications and supplier rules:
 * the calls, the records they answer with, the two grids.
 */
import { defineCall, type Deleted, returns } from "./contract.ts";
import { defineList, ListBody, type ListResult } from "../list.ts";
import {
  CategoryForm,
  CategoryUpdate,
  QualificationForm,
  QualificationUpdate,
  QuestionForm,
  type QuestionOption,
  QuestionReorder,
  type QuestionType,
  QuestionUpdate,
  SupplierRuleForm,
  SupplierRuleUpdate,
} from "../schemas/library.ts";

// ---------------------------------------------------------------- records

export type CategoryRecord = {
  _id: string;
  categoryTitle: string;
  categoryDesc: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
};

/** An active category in a select (child project form). */
export type CategoryOption = {
  _id: string;
  label: string;
  value: string;
  categoryTitle: string;
  categoryDesc: string;
};

export type SupplierRuleRecord = {
  _id: string;
  minSupplierCpi: number;
  maxSupplierCpi: number;
  categoryTitle: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
};

/** A question's answer option as stored (it has its id). */
export type StoredOption = QuestionOption & { _id: string };

export type QuestionRecord = {
  _id: string;
  projectId: string | null;
  isTempQuestion: boolean;
  languageId: string;
  questionTitle: Record<string, string>;
  /** The title in the question's language (for lists and pickers). */
  title: string;
  questionType: QuestionType;
  questionOption: StoredOption[];
  sortOrder: number;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
};

export type QualificationOptionRecord = { _id: string; text: string; subText: string; isActive: boolean };

export type QualificationRecord = {
  _id: string;
  label: string;
  value: string;
  qualificationName: string;
  qualificationKey: string;
  qualificationIcon: string;
  qualificationOptions: QualificationOptionRecord[];
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
};

// ---------------------------------------------------------------- categories

export const listCategories = defineCall({
  method: "POST",
  path: "/admin/categories",
  body: ListBody,
  csv: true,
  result: returns<ListResult<CategoryRecord>>(),
});
export const categoryOptionsCall = defineCall({
  method: "GET",
  path: "/admin/categories/all",
  result: returns<CategoryOption[]>(),
});
export const addCategory = defineCall({
  method: "POST",
  path: "/admin/category/add",
  body: CategoryForm,
  result: returns<CategoryRecord>(),
});
export const updateCategoryCall = defineCall({
  method: "PUT",
  path: "/admin/category/update/:id",
  ids: { id: "Category" },
  body: CategoryUpdate,
  result: returns<CategoryRecord | Deleted>(),
});
export const getCategoryCall = defineCall({
  method: "GET",
  path: "/admin/category/:id",
  ids: { id: "Category" },
  result: returns<CategoryRecord>(),
});

// ---------------------------------------------------------------- temporary questions

/** The temporary questions in their order. */
export const listTempQuestions = defineCall({
  method: "GET",
  path: "/admin/questions/temp",
  result: returns<QuestionRecord[]>(),
});
export const addTempQuestion = defineCall({
  method: "POST",
  path: "/admin/question/temp/add",
  body: QuestionForm,
  result: returns<QuestionRecord>(),
});
export const updateTempQuestion = defineCall({
  method: "PUT",
  path: "/admin/survey/question/temp/update/:id",
  ids: { id: "Question" },
  body: QuestionUpdate,
  result: returns<QuestionRecord | Deleted>(),
});
/** Saves a new order (every temporary question's id, in order); answers the reordered list. */
export const reorderTempQuestions = defineCall({
  method: "PUT",
  path: "/admin/question/temp/reorder",
  body: QuestionReorder,
  result: returns<QuestionRecord[]>(),
});
export const getTempQuestion = defineCall({
  method: "GET",
  path: "/admin/question/temp/:id",
  ids: { id: "Question" },
  result: returns<QuestionRecord>(),
});

// ---------------------------------------------------------------- qualifications

export const listQualificationsCall = defineCall({
  method: "GET",
  path: "/admin/qualifications/all",
  result: returns<QualificationRecord[]>(),
});
export const addQualification = defineCall({
  method: "POST",
  path: "/admin/qualification/add",
  body: QualificationForm,
  result: returns<QualificationRecord>(),
});
export const updateQualificationCall = defineCall({
  method: "PUT",
  path: "/admin/qualification/update/:id",
  ids: { id: "Qualification" },
  body: QualificationUpdate,
  result: returns<QualificationRecord | Deleted>(),
});

// ---------------------------------------------------------------- supplier rules

export const listSupplierRules = defineCall({
  method: "POST",
  path: "/admin/supplier/rules/data",
  body: ListBody,
  csv: true,
  result: returns<ListResult<SupplierRuleRecord>>(),
});
export const addSupplierRule = defineCall({
  method: "POST",
  path: "/admin/supplier/rule/add",
  body: SupplierRuleForm,
  result: returns<SupplierRuleRecord>(),
});
export const updateSupplierRuleCall = defineCall({
  method: "PUT",
  path: "/admin/supplier/rule/update/:id",
  ids: { id: "Supplier rule" },
  body: SupplierRuleUpdate,
  result: returns<SupplierRuleRecord | Deleted>(),
});
export const getSupplierRuleCall = defineCall({
  method: "GET",
  path: "/admin/supplier/rule/:id",
  ids: { id: "Supplier rule" },
  result: returns<SupplierRuleRecord>(),
});

// ---------------------------------------------------------------- lists

const status = (r: { isActive: boolean }) => (r.isActive ? "Active" : "Inactive");

/** Library > Categories. */
export const categoriesList = defineList<CategoryRecord>()({
  id: "categories",
  call: listCategories,
  filters: {},
  sorts: ["categoryTitle", "createdAt"],
  columns: [
    { key: "categoryTitle", header: "Category title", value: (r) => r.categoryTitle },
    { key: "categoryDesc", header: "Description", value: (r) => r.categoryDesc },
    { key: "isActive", header: "Status", value: status },
    { key: "createdAt", header: "Created", value: (r) => r.createdAt },
  ],
});

/** Library > Supplier Rules. */
export const supplierRulesList = defineList<SupplierRuleRecord>()({
  id: "supplier-rules",
  call: listSupplierRules,
  filters: {},
  sorts: ["minSupplierCpi", "maxSupplierCpi", "createdAt"],
  columns: [
    { key: "minSupplierCpi", header: "Minimum CPI", value: (r) => r.minSupplierCpi },
    { key: "maxSupplierCpi", header: "Maximum CPI", value: (r) => r.maxSupplierCpi },
    { key: "categoryTitle", header: "Category", value: (r) => r.categoryTitle },
    { key: "isActive", header: "Status", value: status },
    { key: "createdAt", header: "Created", value: (r) => r.createdAt },
  ],
});
