// Frozen: never edit a migration that has shipped; add a new one.
// A provider quota never becomes several (issue 21): imports made before this split a provider quota
// over a set of answers of one question ("18-24 or 25-34", a list of postal codes) into one cell per
// answer, each with the provider's whole limit, so the router took the limit once per answer. Here,
// per imported project, each such quota (a quota map link naming several options) becomes the one
// cell the import now makes: over the set (options: [[ids]]), strict (0 left is closed), holding
// the completes its answers' cells counted, sized as the smallest of them (each was sized the whole
// limit; the next refresh sizes it from the provider's completes left). Answer
// cells that another provider quota names on its own stay; the others go. The quota map's link
// then names the new cell, so the refresh sizes it. Every cell a provider quota sizes (on one
// answer, a set, or interlocked) becomes strict: when the provider has none left, it is closed (a
// size of 0 used to mean "no limit"). Down leaves the cells as they are: splitting a
// limit again would only bring the overshoot back.
import type { Kysely } from "kysely";
import { cellId } from "../../server/domain/imports/cells.ts";

// deno-lint-ignore no-explicit-any
type AnyDb = Kysely<any>;

type Link = { quotaId: string; projectQuotaId: string; optionIds: string[] };
type Cell = {
  quotaOptionId: string;
  quotaSize: number;
  completes: number;
  options?: unknown;
  strict?: boolean;
};

const list = <T>(text: unknown): T[] => {
  try {
    const v = JSON.parse(String(text));
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
};

export async function up(db: AnyDb): Promise<void> {
  const imports = await db.selectFrom("offer_imports").select(["id", "quotaMap"]).execute();
  for (const row of imports) {
    const links = list<Link>(row.quotaMap).filter((l) => Array.isArray(l.optionIds));
    if (!links.length) continue;
    for (const projectQuotaId of new Set(links.map((l) => l.projectQuotaId))) {
      const pq = await db.selectFrom("project_quotas").select(["quotaValue", "qualificationIds"])
        .where("id", "=", projectQuotaId).where("isDeleted", "=", 0).executeTakeFirst();
      if (!pq) continue;
      const cells = list<Cell>(pq.quotaValue);
      const mine = links.filter((l) => l.projectQuotaId === projectQuotaId);
      const interlocked = list<string>(pq.qualificationIds).length > 1;
      const keep = new Set(mine.filter((l) => l.optionIds.length === 1).map((l) => l.optionIds[0]));
      const merged = new Set<string>();
      const made: Cell[] = [];
      for (const link of interlocked ? [] : mine.filter((l) => l.optionIds.length > 1)) {
        const ids = [...link.optionIds].map(String).sort();
        const old = cells.filter((c) => ids.includes(c.quotaOptionId));
        old.forEach((c) => merged.add(c.quotaOptionId));
        const completes = old.reduce((n, c) => n + (Number(c.completes) || 0), 0);
        // each answer cell was sized the provider's completes left (plus its own completes at the
        // last refresh): the smallest is what the set may take at most; the next refresh resizes it
        const size = old.length ? Math.min(...old.map((c) => Number(c.quotaSize) || 0)) : 0;
        const id = cellId([ids]);
        const twin = made.find((c) => c.quotaOptionId === id);
        if (twin) twin.quotaSize = Math.min(twin.quotaSize, size);
        else made.push({ quotaOptionId: id, quotaSize: size, completes, options: [ids], strict: true });
        link.optionIds = [id];
      }
      const next = [
        ...cells.filter((c) =>
          (!merged.has(c.quotaOptionId) || keep.has(c.quotaOptionId)) &&
          !made.some((m) => m.quotaOptionId === c.quotaOptionId)
        ),
        ...made,
      ];
      // every cell a provider quota sizes is strict: 0 left is closed, not "no limit"
      const named = new Set(mine.flatMap((l) => l.optionIds));
      next.forEach((c) => named.has(c.quotaOptionId) && (c.strict = true));
      await db.updateTable("project_quotas").set({ quotaValue: JSON.stringify(next) })
        .where("id", "=", projectQuotaId).execute();
    }
    await db.updateTable("offer_imports").set({ quotaMap: JSON.stringify(links) }).where("id", "=", row.id)
      .execute();
  }
}

export async function down(_db: AnyDb): Promise<void> {
  // the cells stay one per provider quota (see above)
}
