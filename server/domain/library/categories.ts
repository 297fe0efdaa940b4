/** Library categories (part 2: Library > Categories; entity Category). */
import type { Selectable } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { CategoriesTable } from "../../db/tables/master.ts";
import { newId } from "../../db/ids.ts";
import { toApi } from "../../db/rows.ts";
import { activeStatus, type AnyQB, listSpecOf } from "../../db/list.ts";
import { notFound } from "../errors.ts";
import type { CategoryForm, CategoryUpdate } from "../../../shared/schemas/library.ts";
import { categoriesList, type CategoryOption, type CategoryRecord } from "../../../shared/api/library.ts";
import type { Deleted } from "../../../shared/api/contract.ts";
import { writeLog } from "../audit/log.ts";
import { dateAt } from "../common/clock.ts";
import { runUpdate } from "../common/records.ts";
import { CATEGORY_FIELDS } from "../audit/fields.ts";
import type { WriteCtx } from "../ctx.ts";

const MODULE = "Categories";
const COLUMNS = ["id", "categoryTitle", "categoryDesc", "isActive", "createdAt", "updatedAt"] as const;
type CategoryRow = Pick<Selectable<CategoriesTable>, (typeof COLUMNS)[number]>;
export type { CategoryRecord };

export const categoryRecord = (r: CategoryRow): CategoryRecord => toApi(r);

export function categoriesListQuery(db: Db): AnyQB {
  return db.selectFrom("categories").select(COLUMNS).where("isDeleted", "=", 0);
}

export const categoriesListSpec = listSpecOf(categoriesList, {
  filters: {},
  search: ["categoryTitle", "categoryDesc"],
  status: activeStatus(),
  sorts: { categoryTitle: "categoryTitle", createdAt: "createdAt" },
  defaultSort: [["createdAt", "desc"], ["id", "desc"]],
  rowid: "categories.rowid",
});

export async function getCategory(db: Db, id: string): Promise<CategoryRecord> {
  const row = await db.selectFrom("categories").select(COLUMNS).where("id", "=", id).where(
    "isDeleted",
    "=",
    0,
  )
    .executeTakeFirst();
  if (!row) throw notFound("Category");
  return categoryRecord(row);
}

/** Active categories for selects (child project form): `{_id, label, value, categoryTitle}`. */
export async function categoryOptions(db: Db): Promise<CategoryOption[]> {
  const rows = await db.selectFrom("categories").select(["id", "categoryTitle", "categoryDesc"])
    .where("isDeleted", "=", 0).where("isActive", "=", 1).orderBy("categoryTitle").orderBy("id").execute();
  return rows.map((r) => ({
    _id: r.id,
    label: r.categoryTitle,
    value: r.id,
    categoryTitle: r.categoryTitle,
    categoryDesc: r.categoryDesc,
  }));
}

export async function createCategory(
  ctx: WriteCtx,
  input: CategoryForm,
): Promise<CategoryRecord> {
  const { db, actor, now: clock } = ctx;
  return await db.transaction().execute(async (trx) => {
    const at = dateAt(clock), now = at.toISOString();
    const id = newId(at.getTime());
    await trx.insertInto("categories").values({
      id,
      categoryTitle: input.categoryTitle,
      categoryDesc: input.categoryDesc,
      isActive: input.isActive ? 1 : 0,
      isDeleted: 0,
      createdAt: now,
      updatedAt: now,
    }).execute();
    await writeLog(trx, actor, {
      activity: `Created category ${input.categoryTitle}`,
      module: MODULE,
      recordId: id,
    }, at);
    return getCategory(trx, id);
  });
}

export async function updateCategory(
  ctx: WriteCtx,
  args: { id: string } & CategoryUpdate,
) {
  const { db, actor, now: clock } = ctx;
  const { id, ...input } = args;
  return await runUpdate<CategoryForm, CategoryRecord | Deleted>(db, actor, {
    table: "categories",
    id,
    now: clock,
    what: "Category",
    module: MODULE,
    input,
    fields: CATEGORY_FIELDS,
    label: async (trx) =>
      `category ${
        (await trx.selectFrom("categories").select("categoryTitle").where("id", "=", id)
          .executeTakeFirstOrThrow())
          .categoryTitle
      }`,
    saveForm: async (trx, form, now) => {
      await trx.updateTable("categories").set({
        categoryTitle: form.categoryTitle,
        categoryDesc: form.categoryDesc,
        isActive: form.isActive ? 1 : 0,
        updatedAt: now,
      }).where("id", "=", id).execute();
      return `Updated category ${form.categoryTitle}`;
    },
    read: async (trx) => {
      const r = await trx.selectFrom("categories").select("isDeleted").where("id", "=", id)
        .executeTakeFirstOrThrow();
      return r.isDeleted ? { _id: id, isDeleted: true as const } : await getCategory(trx, id);
    },
  });
}
