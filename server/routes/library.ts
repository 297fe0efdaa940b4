/** Library (part 2, 7 "Library"): categories, temporary questions, qualifications, supplier rules. */
import type { Api } from "../http/api.ts";
import { actorOf } from "../http/api.ts";
import { body, idParam } from "../http/validate.ts";
import { ok } from "../http/respond.ts";
import { listResponse } from "../http/list-route.ts";
import type { CsvColumn } from "../http/csv.ts";
import { ListBody } from "../../shared/list.ts";
import {
  CategoryForm,
  CategoryUpdate,
  QualificationForm,
  QualificationUpdate,
  QuestionForm,
  QuestionReorder,
  QuestionUpdate,
  SupplierRuleForm,
  SupplierRuleUpdate,
} from "../../shared/schemas/library.ts";
import {
  categoriesListQuery,
  categoriesListSpec,
  categoryOptions,
  type CategoryRecord,
  categoryRecord,
  createCategory,
  getCategory,
  updateCategory,
} from "../domain/library/categories.ts";
import {
  createQuestion,
  getQuestion,
  listQuestions,
  reorderQuestions,
  TEMP,
  updateQuestion,
} from "../domain/library/questions.ts";
import {
  createQualification,
  listQualifications,
  updateQualification,
} from "../domain/library/qualifications.ts";
import {
  createSupplierRule,
  getSupplierRule,
  type SupplierRuleRecord,
  supplierRuleRecord,
  supplierRulesListQuery,
  supplierRulesListSpec,
  updateSupplierRule,
} from "../domain/library/supplier-rules.ts";
import { updateMessage } from "../domain/common/records.ts";

const status = (r: { isActive: boolean | number }) => (r.isActive ? "Active" : "Inactive");

const categoryCsv: CsvColumn<CategoryRecord>[] = [
  { header: "Category title", value: (r) => r.categoryTitle },
  { header: "Description", value: (r) => r.categoryDesc },
  { header: "Status", value: status },
  { header: "Created", value: (r) => r.createdAt },
];

const ruleCsv: CsvColumn<SupplierRuleRecord>[] = [
  { header: "Minimum CPI", value: (r) => r.minSupplierCpi },
  { header: "Maximum CPI", value: (r) => r.maxSupplierCpi },
  { header: "Category", value: (r) => r.categoryTitle },
  { header: "Status", value: status },
  { header: "Created", value: (r) => r.createdAt },
];

function categoryRoutes(api: Api) {
  api.post("/admin/categories", async (c) =>
    listResponse(c, await body(c, ListBody), {
      query: categoriesListQuery(c.get("deps").db),
      spec: categoriesListSpec,
      map: categoryRecord,
      csv: { filename: "categories", columns: categoryCsv },
    }));
  api.get("/admin/categories/all", async (c) => ok(c, await categoryOptions(c.get("deps").db)));
  api.post("/admin/category/add", async (c) => {
    const input = await body(c, CategoryForm);
    return ok(c, await createCategory(c.get("deps").db, actorOf(c), input), "Category added successfully");
  });
  api.put("/admin/category/update/:id", async (c) => {
    const id = idParam(c, "Category");
    const input = await body(c, CategoryUpdate);
    const { record, outcome } = await updateCategory(c.get("deps").db, actorOf(c), id, input);
    return ok(c, record, updateMessage("Category", outcome));
  });
  api.get(
    "/admin/category/:id",
    async (c) => ok(c, await getCategory(c.get("deps").db, idParam(c, "Category"))),
  );
}

function questionRoutes(api: Api) {
  api.get("/admin/questions/temp", async (c) => ok(c, await listQuestions(c.get("deps").db, TEMP)));
  api.post("/admin/question/temp/add", async (c) => {
    const input = await body(c, QuestionForm);
    return ok(
      c,
      await createQuestion(c.get("deps").db, actorOf(c), TEMP, input),
      "Question added successfully",
    );
  });
  api.put("/admin/survey/question/temp/update/:id", async (c) => {
    const id = idParam(c, "Question");
    const input = await body(c, QuestionUpdate);
    const { record, deleted } = await updateQuestion(c.get("deps").db, actorOf(c), TEMP, id, input);
    return ok(c, record, deleted ? "Question deleted successfully" : "Question updated successfully");
  });
  api.put("/admin/question/temp/reorder", async (c) => {
    const { ids } = await body(c, QuestionReorder);
    return ok(c, await reorderQuestions(c.get("deps").db, actorOf(c), TEMP, ids), "Question order saved");
  });
  api.get(
    "/admin/question/temp/:id",
    async (c) => ok(c, await getQuestion(c.get("deps").db, TEMP, idParam(c, "Question"))),
  );
}

function qualificationRoutes(api: Api) {
  api.get("/admin/qualifications/all", async (c) => ok(c, await listQualifications(c.get("deps").db)));
  api.post("/admin/qualification/add", async (c) => {
    const input = await body(c, QualificationForm);
    return ok(
      c,
      await createQualification(c.get("deps").db, actorOf(c), input),
      "Qualification added successfully",
    );
  });
  api.put("/admin/qualification/update/:id", async (c) => {
    const id = idParam(c, "Qualification");
    const input = await body(c, QualificationUpdate);
    const { record, outcome } = await updateQualification(c.get("deps").db, actorOf(c), id, input);
    return ok(c, record, updateMessage("Qualification", outcome));
  });
}

function supplierRuleRoutes(api: Api) {
  api.post("/admin/supplier/rules/data", async (c) =>
    listResponse(c, await body(c, ListBody), {
      query: supplierRulesListQuery(c.get("deps").db),
      spec: supplierRulesListSpec,
      map: supplierRuleRecord,
      csv: { filename: "supplier-rules", columns: ruleCsv },
    }));
  api.post("/admin/supplier/rule/add", async (c) => {
    const input = await body(c, SupplierRuleForm);
    return ok(
      c,
      await createSupplierRule(c.get("deps").db, actorOf(c), input),
      "Supplier rule added successfully",
    );
  });
  api.put("/admin/supplier/rule/update/:id", async (c) => {
    const id = idParam(c, "Supplier rule");
    const input = await body(c, SupplierRuleUpdate);
    const { record, outcome } = await updateSupplierRule(c.get("deps").db, actorOf(c), id, input);
    return ok(c, record, updateMessage("Supplier rule", outcome));
  });
  api.get(
    "/admin/supplier/rule/:id",
    async (c) => ok(c, await getSupplierRule(c.get("deps").db, idParam(c, "Supplier rule"))),
  );
}

export function libraryRoutes(api: Api) {
  categoryRoutes(api);
  questionRoutes(api);
  qualificationRoutes(api);
  supplierRuleRoutes(api);
}
