/**
 * The parts of a supply API survey read per page (never per survey): the quotas with their live cell
 * counts, the library-linked pre-screen questions, and the completes a supplier may still deliver.
 * Quota cells and question options are read as the router reads them (config.ts, load.ts).
 */
import type { Db } from "../../db/connection.ts";
import { parseJsonList } from "../common/values.ts";
import {
  cellGroups,
  isGroupedCell,
  parseOptions,
  type PrescreenQuestion,
  type StoredCell,
} from "../router/config.ts";
import { askable, visibleOptions } from "../router/prescreen.ts";
import type { QuotaCell } from "../router/writer/load.ts";
import type {
  SupplyQualification,
  SupplyQuota,
  SupplyQuotaCell,
} from "../../../shared/api/supply-surveys.ts";

/** A quota cell as stored: the writer's count, and a grouped cell's option groups. */
type StoredQuotaCell = QuotaCell & StoredCell;

/** Whether a stored cell limits its completes (0 is "no size set" unless the cell is strict). */
const limited = (c: StoredQuotaCell) => Number(c.quotaSize) > 0 || c.strict === true;

/** The live quotas of the given projects, by project id, their cells labelled by option texts. */
export async function quotasOf(db: Db, projectIds: string[]): Promise<Map<string, SupplyQuota[]>> {
  const out = new Map<string, SupplyQuota[]>();
  if (!projectIds.length) return out;
  const rows = await db.selectFrom("project_quotas")
    .select(["id", "projectId", "qualificationId", "qualificationIds", "quotaValue"])
    .where("projectId", "in", projectIds).where("isDeleted", "=", 0)
    .orderBy("projectId").orderBy("createdAt").orderBy("id").execute();
  const parsed = rows.map((r) => {
    const ids = parseJsonList<string>(r.qualificationIds).map(String);
    return {
      row: r,
      qualificationIds: ids.length > 1 ? ids : [r.qualificationId],
      cells: parseJsonList<StoredQuotaCell>(r.quotaValue),
    };
  });
  const optionIds = new Set<string>();
  for (const p of parsed) {
    for (const c of p.cells) {
      if (isGroupedCell(c)) cellGroups(c).flat().forEach((id) => optionIds.add(id));
      else optionIds.add(String(c.quotaOptionId));
    }
  }
  const texts = optionIds.size
    ? new Map(
      (await db.selectFrom("qualification_options").select(["id", "text"]).where("id", "in", [...optionIds])
        .execute()).map((o) => [o.id, o.text]),
    )
    : new Map<string, string>();
  const textOf = (id: string) => texts.get(id) ?? id;
  for (const p of parsed) {
    const cells: SupplyQuotaCell[] = p.cells.map((c) => {
      const completes = Math.max(0, Number(c.completes) || 0);
      const size = limited(c) ? Math.max(0, Number(c.quotaSize) || 0) : null;
      return {
        quotaId: p.row.id,
        cellId: String(c.quotaOptionId),
        label: isGroupedCell(c)
          ? cellGroups(c).map((g) => g.map(textOf).join(" / ")).join(" x ")
          : textOf(String(c.quotaOptionId)),
        size,
        completes,
        remaining: size === null ? null : Math.max(0, size - completes),
      };
    });
    const list = out.get(p.row.projectId) ?? [];
    list.push({ id: p.row.id, qualificationIds: p.qualificationIds, cells });
    out.set(p.row.projectId, list);
  }
  return out;
}

/**
 * The library-linked pre-screen questions of the given projects as a supplier of `supplierType` sees
 * them (options hidden from its kind left out), by project id: the library question and the
 * answers that qualify (a disqualifying option is not one of them).
 */
export async function qualificationsOf(
  db: Db,
  projectIds: string[],
  supplierType: number,
): Promise<Map<string, SupplyQualification[]>> {
  const out = new Map<string, SupplyQualification[]>();
  if (!projectIds.length) return out;
  const rows = await db.selectFrom("questions")
    .select(["id", "projectId", "questionType", "questionOption", "languageId", "libraryQuestionId"])
    .where("projectId", "in", projectIds).where("isTempQuestion", "=", 0).where("isDeleted", "=", 0)
    .where("isActive", "=", 1).where("libraryQuestionId", "is not", null)
    .orderBy("projectId").orderBy("sortOrder").orderBy("createdAt").orderBy("id").execute();
  const questions: (PrescreenQuestion & { projectId: string })[] = rows.map((r) => ({
    id: r.id,
    projectId: r.projectId!,
    type: r.questionType as PrescreenQuestion["type"],
    title: {},
    languageId: r.languageId,
    libraryId: r.libraryQuestionId,
    options: parseOptions(r.questionOption),
  }));
  for (const q of askable(questions, supplierType) as typeof questions) {
    const list = out.get(q.projectId) ?? [];
    list.push({
      questionId: q.libraryId!,
      answerIds: q.type === "TEXT"
        ? null
        : visibleOptions(q, supplierType).filter((o) => o.formvalidate).map((o) => o._id),
    });
    out.set(q.projectId, list);
  }
  return out;
}

/** A limit and its count: what is left (never below 0), or null when there is no limit (0). */
export const leftOf = (limit: number, count: number): number | null =>
  limit > 0 ? Math.max(0, limit - count) : null;

/**
 * Completes a supplier may still deliver (null: no limit): the least of the project's remainder,
 * the map's and, per quota whose every cell is limited, the sum of its cells' remainders. A
 * respondent who falls in no cell of a quota is not held by it, so a quota with an unlimited cell
 * (or none) bounds nothing overall; each cell's own remainder is shown with the quotas.
 */
export function remainingOf(
  project: number | null,
  map: number | null,
  quotas: SupplyQuota[],
): number | null {
  const bounds = [project, map];
  for (const q of quotas) {
    if (!q.cells.length || q.cells.some((c) => c.remaining === null)) continue;
    bounds.push(q.cells.reduce((sum, c) => sum + c.remaining!, 0));
  }
  const known = bounds.filter((b): b is number => b !== null);
  return known.length ? Math.min(...known) : null;
}
