/**
 * Qualifications (part 2: entity Qualification): a named, keyed profiling attribute with ordered
 * options. Options are rows with stable ids so project quotas can point at one option; an option
 * removed from the form is marked deleted, never erased.
 */
import { type Selectable, sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { QualificationOptionsTable, QualificationsTable } from "../../db/tables/master.ts";
import { newId } from "../../db/ids.ts";
import { conflict, notFound } from "../errors.ts";
import { MSG } from "../../../shared/messages.ts";
import type { QualificationForm, QualificationUpdate } from "../../../shared/schemas/library.ts";
import type { QualificationOptionRecord, QualificationRecord } from "../../../shared/api/library.ts";
import type { Deleted } from "../../../shared/api/contract.ts";
import { writeLog } from "../audit/log.ts";
import { dateAt } from "../common/clock.ts";
import { runUpdate } from "../common/records.ts";
import { QUALIFICATION_FIELDS } from "../audit/fields.ts";
import { counted } from "../../../shared/format.ts";
import type { WriteCtx } from "../ctx.ts";

const MODULE = "Qualifications";
type QualificationRow = Selectable<QualificationsTable>;
type OptionRow = Selectable<QualificationOptionsTable>;

export type { QualificationOptionRecord, QualificationRecord };

function record(q: QualificationRow, options: OptionRow[]): QualificationRecord {
  return {
    _id: q.id,
    label: q.qualificationName,
    value: q.id,
    qualificationName: q.qualificationName,
    qualificationKey: q.qualificationKey,
    qualificationIcon: q.qualificationIcon,
    qualificationOptions: options.map((o) => ({
      _id: o.id,
      text: o.text,
      subText: o.subText,
      isActive: o.isActive === 1,
    })),
    isActive: q.isActive === 1,
    createdAt: q.createdAt,
    updatedAt: q.updatedAt,
  };
}

async function withOptions(db: Db, rows: QualificationRow[]): Promise<QualificationRecord[]> {
  if (!rows.length) return [];
  const options = await db.selectFrom("qualification_options").selectAll()
    .where("qualificationId", "in", rows.map((r) => r.id)).where("isDeleted", "=", 0)
    .orderBy("qualificationId").orderBy("sortOrder").execute();
  const by = Map.groupBy(options, (o) => o.qualificationId);
  return rows.map((r) => record(r, by.get(r.id) ?? []));
}

/** Live qualifications with their options in order (library list and the quota picker). */
export async function listQualifications(db: Db): Promise<QualificationRecord[]> {
  const rows = await db.selectFrom("qualifications").selectAll().where("isDeleted", "=", 0)
    .orderBy("qualificationName").orderBy("id").execute();
  return await withOptions(db, rows);
}

export async function getQualification(db: Db, id: string): Promise<QualificationRecord> {
  const row = await db.selectFrom("qualifications").selectAll().where("id", "=", id).where(
    "isDeleted",
    "=",
    0,
  )
    .executeTakeFirst();
  if (!row) throw notFound("Qualification");
  return (await withOptions(db, [row]))[0];
}

async function assertKeyFree(trx: Db, key: string, exceptId?: string) {
  let q = trx.selectFrom("qualifications").select("id").where(
    sql<boolean>`qualificationKey = ${key} COLLATE NOCASE`,
  )
    .where("isDeleted", "=", 0);
  if (exceptId) q = q.where("id", "!=", exceptId);
  if (await q.executeTakeFirst()) {
    throw conflict(MSG.qualificationKeyTaken, [{
      path: "qualificationKey",
      message: MSG.qualificationKeyTaken,
    }]);
  }
}

/** Writes the options in the form's order: known ids are updated, new ones added, missing ones marked deleted. */
async function saveOptions(
  trx: Db,
  qualificationId: string,
  options: QualificationForm["qualificationOptions"],
) {
  const existing = await trx.selectFrom("qualification_options").select("id")
    .where("qualificationId", "=", qualificationId).where("isDeleted", "=", 0).execute();
  const known = new Set(existing.map((o) => o.id));
  const kept = new Set<string>();
  for (const [i, o] of options.entries()) {
    const values = { text: o.text, subText: o.subText, isActive: o.isActive ? 1 : 0, sortOrder: i + 1 };
    if (o._id && known.has(o._id) && !kept.has(o._id)) {
      kept.add(o._id);
      await trx.updateTable("qualification_options").set(values).where("id", "=", o._id).execute();
    } else {
      await trx.insertInto("qualification_options").values({
        id: newId(),
        qualificationId,
        isDeleted: 0,
        ...values,
      })
        .execute();
    }
  }
  const gone = [...known].filter((id) => !kept.has(id));
  if (gone.length) {
    await trx.updateTable("qualification_options").set({ isDeleted: 1 }).where("id", "in", gone).execute();
  }
}

export async function createQualification(
  ctx: WriteCtx,
  input: QualificationForm,
): Promise<QualificationRecord> {
  const { db, actor, now: clock } = ctx;
  return await db.transaction().execute(async (trx) => {
    await assertKeyFree(trx, input.qualificationKey);
    const at = dateAt(clock), now = at.toISOString();
    const id = newId(at.getTime());
    await trx.insertInto("qualifications").values({
      id,
      qualificationName: input.qualificationName,
      qualificationKey: input.qualificationKey,
      qualificationIcon: input.qualificationIcon,
      isActive: input.isActive ? 1 : 0,
      isDeleted: 0,
      createdAt: now,
      updatedAt: now,
    }).execute();
    await saveOptions(trx, id, input.qualificationOptions);
    await writeLog(trx, actor, {
      activity: `Created qualification ${input.qualificationName} (${
        counted(input.qualificationOptions.length, "option")
      })`,
      module: MODULE,
      recordId: id,
    }, at);
    return getQualification(trx, id);
  });
}

export async function updateQualification(
  ctx: WriteCtx,
  args: { id: string } & QualificationUpdate,
) {
  const { db, actor, now: clock } = ctx;
  const { id, ...input } = args;
  return await runUpdate<QualificationForm, QualificationRecord | Deleted>(
    db,
    actor,
    {
      table: "qualifications",
      id,
      now: clock,
      what: "Qualification",
      module: MODULE,
      input,
      fields: QUALIFICATION_FIELDS,
      snapshot: async (trx) => ({
        ...await trx.selectFrom("qualifications").selectAll().where("id", "=", id).executeTakeFirstOrThrow(),
        options:
          (await trx.selectFrom("qualification_options").select("text").where("qualificationId", "=", id)
            .where("isDeleted", "=", 0).orderBy("sortOrder").execute()).map((o) => o.text),
      }),
      label: async (trx) =>
        `qualification ${
          (await trx.selectFrom("qualifications").select("qualificationName").where("id", "=", id)
            .executeTakeFirstOrThrow()).qualificationName
        }`,
      saveForm: async (trx, form, now) => {
        await assertKeyFree(trx, form.qualificationKey, id);
        await trx.updateTable("qualifications").set({
          qualificationName: form.qualificationName,
          qualificationKey: form.qualificationKey,
          qualificationIcon: form.qualificationIcon,
          isActive: form.isActive ? 1 : 0,
          updatedAt: now,
        }).where("id", "=", id).execute();
        await saveOptions(trx, id, form.qualificationOptions);
        return `Updated qualification ${form.qualificationName} (${
          counted(form.qualificationOptions.length, "option")
        })`;
      },
      read: async (trx) => {
        const r = await trx.selectFrom("qualifications").select("isDeleted").where("id", "=", id)
          .executeTakeFirstOrThrow();
        return r.isDeleted ? { _id: id, isDeleted: true as const } : await getQualification(trx, id);
      },
    },
  );
}
