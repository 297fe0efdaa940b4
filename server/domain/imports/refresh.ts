/**
 * The refresh of imported offers (a background job of the server): each import whose project is
 * still running is read again from its provider. An offer no longer offered (vanished) or with no
 * completes left (closed) pauses its project through the projects domain's status change (its log,
 * its children, the router told at once); a changed CPI or remaining count is written to the child
 * project, its quota cells (our completes plus what the provider still wants) and the import. Every
 * change is a row of the project's Logs and the system log. A provider that fails is skipped this
 * round (its projects keep running), and says so in the server log.
 */
import type { Deps } from "../../deps.ts";
import { type Actor, writeLog } from "../audit/log.ts";
import { applyStatus } from "../projects/status.ts";
import { type Clock, dateAt, MODULE } from "../projects/projects.ts";
import { isFinishedStatus, PROJECT_STATUS } from "../../../shared/status.ts";
import type { ProviderKey } from "../../../shared/schemas/providers.ts";
import type { ProviderAdapter } from "../../providers/types.ts";
import { providerLabel, type QuotaLink } from "./import.ts";

export const REFRESH_ACTOR: Actor = { userId: null, name: "Offer refresh", device: "server" };
/** How often the server re-pulls imported offers. */
export const REFRESH_INTERVAL_MS = 10 * 60_000;

export type RefreshReport = { checked: number; paused: number; updated: number; failed: string[] };

export async function refreshImports(
  { db, services }: Pick<Deps, "db" | "services">,
  adapterOf: (key: ProviderKey) => ProviderAdapter | null,
  now: Clock = Date.now,
): Promise<RefreshReport> {
  const report: RefreshReport = { checked: 0, paused: 0, updated: 0, failed: [] };
  const rows = await db.selectFrom("offer_imports as i").innerJoin("projects as p", "p.id", "i.projectId")
    .select([
      "i.id",
      "i.provider",
      "i.surveyId",
      "i.projectId",
      "i.cpi",
      "i.remaining",
      "i.offerState",
      "i.quotaMap",
      "p.projectStatus",
    ])
    .where("p.isDeleted", "=", 0).orderBy("i.createdAt").execute();
  const down = new Set<string>();
  for (const row of rows) {
    if (isFinishedStatus(row.projectStatus) || down.has(row.provider)) continue;
    const adapter = adapterOf(row.provider as ProviderKey);
    if (!adapter) continue;
    let offer;
    try {
      offer = await adapter.getOffer(row.surveyId);
    } catch (e) {
      down.add(row.provider);
      report.failed.push(e instanceof Error ? e.message : String(e));
      continue;
    }
    report.checked++;
    const label = providerLabel(adapter.key, adapter.config.sandbox);
    const state = !offer ? "vanished" : offer.remaining <= 0 ? "closed" : "open";
    const at = dateAt(now), stamp = at.toISOString();
    const touched: string[] = [];
    await db.transaction().execute(async (trx) => {
      const p = await trx.selectFrom("projects").selectAll().where("id", "=", row.projectId)
        .executeTakeFirstOrThrow();
      const changes: string[] = [];
      if (offer && offer.cpi !== row.cpi) {
        changes.push(`CPI ${row.cpi.toFixed(2)} -> ${offer.cpi.toFixed(2)}`);
      }
      if (offer && offer.remaining !== row.remaining) {
        changes.push(`remaining ${row.remaining} -> ${offer.remaining}`);
      }
      if (offer && changes.length) {
        await trx.updateTable("projects").set({ cpi: offer.cpi, updatedAt: stamp }).where("id", "=", p.id)
          .execute();
        // each cell may take our completes plus what the provider still wants
        const links = JSON.parse(row.quotaMap) as QuotaLink[];
        const byQuota = new Map<string, Map<string, number>>();
        for (const l of links) {
          const q = offer.quotas.find((x) => x.quotaId === l.quotaId);
          const cells = byQuota.get(l.projectQuotaId) ?? new Map<string, number>();
          // two provider quotas on one cell: the tighter limit holds, as when it was planned
          for (const o of l.optionIds) cells.set(o, Math.min(cells.get(o) ?? Infinity, q?.remaining ?? 0));
          byQuota.set(l.projectQuotaId, cells);
        }
        for (const [quotaId, sizes] of byQuota) {
          const pq = await trx.selectFrom("project_quotas").select(["quotaValue"]).where("id", "=", quotaId)
            .executeTakeFirst();
          if (!pq) continue;
          const cells =
            (JSON.parse(pq.quotaValue) as { quotaOptionId: string; quotaSize: number; completes: number }[])
              .map((c) =>
                sizes.has(c.quotaOptionId)
                  ? { ...c, quotaSize: (c.completes ?? 0) + sizes.get(c.quotaOptionId)! }
                  : c
              );
          await trx.updateTable("project_quotas").set({ quotaValue: JSON.stringify(cells), updatedAt: stamp })
            .where("id", "=", quotaId).execute();
        }
        await writeLog(trx, REFRESH_ACTOR, {
          activity: `${label} survey ${row.surveyId} changed: ${changes.join(", ")}`,
          module: MODULE,
          recordId: p.id,
        }, at);
        report.updated++;
        touched.push(p.id);
      }
      if (state !== "open" && state !== row.offerState) {
        await writeLog(trx, REFRESH_ACTOR, {
          activity: state === "vanished"
            ? `${label} no longer offers survey ${row.surveyId}`
            : `${label} survey ${row.surveyId} has no completes left (quota closed)`,
          module: MODULE,
          recordId: p.id,
        }, at);
        if (p.projectStatus === PROJECT_STATUS.LIVE) {
          touched.push(
            ...await applyStatus({ db: trx, actor: REFRESH_ACTOR, now }, {
              project: p,
              to: PROJECT_STATUS.PAUSED,
              poNumber: undefined,
            }),
          );
          report.paused++;
        }
      }
      await trx.updateTable("offer_imports").set({
        offerState: state,
        lastCheckedAt: stamp,
        updatedAt: stamp,
        ...(offer ? { cpi: offer.cpi, remaining: offer.remaining, endDate: offer.endDate } : {}),
      }).where("id", "=", row.id).execute();
    });
    // the router sees a paused project (and new quota sizes) at once
    if (touched.length) services.changes.project(...new Set(touched));
  }
  return report;
}
