/**
 * Library (part 2, 7 "Library"): categories, temporary questions, qualifications, supplier rules:
 * handlers of the contracts in shared/api/library.ts.
 */
import { answer, type Api } from "../http/api.ts";
import * as L from "../../shared/api/library.ts";
import {
  categoriesListQuery,
  categoriesListSpec,
  categoryOptions,
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
  supplierRuleRecord,
  supplierRulesListQuery,
  supplierRulesListSpec,
  updateSupplierRule,
} from "../domain/library/supplier-rules.ts";
import { updateMessage } from "../domain/common/records.ts";

function categoryRoutes(api: Api) {
  api.list(L.listCategories, ({ db }) => ({
    query: categoriesListQuery(db),
    spec: categoriesListSpec,
    map: categoryRecord,
    list: L.categoriesList,
  }));
  api.handle(L.categoryOptionsCall, ({ db }) => categoryOptions(db));
  api.handle(
    L.addCategory,
    async ({ ctx, body }) => answer(await createCategory(ctx, body), "Category added successfully"),
  );
  api.handle(L.updateCategoryCall, async ({ ctx, params, body }) => {
    const { record, outcome } = await updateCategory(ctx, { ...body, id: params.id });
    return answer(record, updateMessage("Category", outcome));
  });
  api.handle(L.getCategoryCall, ({ db, params }) => getCategory(db, params.id));
}

function questionRoutes(api: Api) {
  api.handle(L.listTempQuestions, ({ db }) => listQuestions(db, TEMP));
  api.handle(
    L.addTempQuestion,
    async ({ ctx, body }) =>
      answer(await createQuestion(ctx, { ...body, scope: TEMP }), "Question added successfully"),
  );
  api.handle(L.updateTempQuestion, async ({ ctx, params, body }) => {
    const { record, deleted } = await updateQuestion(ctx, { ...body, scope: TEMP, id: params.id });
    return answer(record, deleted ? "Question deleted successfully" : "Question updated successfully");
  });
  api.handle(
    L.reorderTempQuestions,
    async ({ ctx, body }) =>
      answer(await reorderQuestions(ctx, { scope: TEMP, ids: body.ids }), "Question order saved"),
  );
  api.handle(L.getTempQuestion, ({ db, params }) => getQuestion(db, TEMP, params.id));
}

function qualificationRoutes(api: Api) {
  api.handle(L.listQualificationsCall, ({ db }) => listQualifications(db));
  api.handle(
    L.addQualification,
    async ({ ctx, body }) => answer(await createQualification(ctx, body), "Qualification added successfully"),
  );
  api.handle(L.updateQualificationCall, async ({ ctx, params, body }) => {
    const { record, outcome } = await updateQualification(ctx, { ...body, id: params.id });
    return answer(record, updateMessage("Qualification", outcome));
  });
}

function supplierRuleRoutes(api: Api) {
  api.list(L.listSupplierRules, ({ db }) => ({
    query: supplierRulesListQuery(db),
    spec: supplierRulesListSpec,
    map: supplierRuleRecord,
    list: L.supplierRulesList,
  }));
  api.handle(
    L.addSupplierRule,
    async ({ ctx, body }) => answer(await createSupplierRule(ctx, body), "Supplier rule added successfully"),
  );
  api.handle(L.updateSupplierRuleCall, async ({ ctx, params, body }) => {
    const { record, outcome } = await updateSupplierRule(ctx, { ...body, id: params.id });
    return answer(record, updateMessage("Supplier rule", outcome));
  });
  api.handle(L.getSupplierRuleCall, ({ db, params }) => getSupplierRule(db, params.id));
}

export function libraryRoutes(api: Api) {
  categoryRoutes(api);
  questionRoutes(api);
  qualificationRoutes(api);
  supplierRuleRoutes(api);
}
