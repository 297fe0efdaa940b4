/**
 * The offers of a provider's tab, with what was imported of them, paged in memory (a provider
 * answers its whole list), and the Projects External tab's list of what was imported.
 */
import type { Db } from "../../db/connection.ts";
import { type AnyQB, inFilter, listSpecOf } from "../../db/list.ts";
import type { ExternalOffer, ExternalProjectItem, ImportedAs } from "../../../shared/api/providers.ts";
import { externalProjectsList } from "../../../shared/api/providers.ts";
import { PROVIDER_NAMES, type ProviderKey } from "../../../shared/schemas/providers.ts";
import type { Offer } from "../../providers/types.ts";

/** The offers with the project each was imported as (if any). */
export async function withImports(db: Db, provider: ProviderKey, offers: Offer[]): Promise<ExternalOffer[]> {
  const ids = offers.map((o) => o.surveyId);
  const rows = ids.length
    ? await db.selectFrom("offer_imports as i").innerJoin("projects as p", "p.id", "i.projectId")
      .select(["i.surveyId", "i.projectId", "i.groupProjectId", "p.projectCode", "p.clientId"])
      .where("i.provider", "=", provider).where("p.isDeleted", "=", 0)
      .where("i.surveyId", "in", ids.slice(0, 5000)).execute()
    : [];
  const by = new Map<string, ImportedAs>(
    rows.map((
      r,
    ) => [r.surveyId, {
      projectId: r.projectId,
      projectCode: r.projectCode,
      groupProjectId: r.groupProjectId,
      clientId: r.clientId,
    }]),
  );
  return offers.map((o) => ({ ...o, imported: by.get(o.surveyId) ?? null }));
}

export function pageOffers(offers: ExternalOffer[], pageNo: number, limit: number) {
  return {
    data: offers.slice((pageNo - 1) * limit, pageNo * limit),
    metadata: { total: offers.length, limit, pageNo },
  };
}

// ---------------------------------------------------------------- Projects External

export function externalProjectsQuery(db: Db): AnyQB {
  return db.selectFrom("offer_imports as i")
    .innerJoin("projects as p", "p.id", "i.projectId")
    .innerJoin("clients as c", "c.id", "p.clientId")
    .select([
      "i.id",
      "i.provider",
      "i.surveyId",
      "i.title",
      "i.countryCode",
      "i.projectId",
      "i.groupProjectId",
      "i.remaining",
      "i.loi",
      "i.ir",
      "i.endDate",
      "i.offerState",
      "i.sandbox",
      "i.lastCheckedAt",
      "i.createdAt",
      "p.projectCode",
      "p.projectName",
      "p.projectStatus",
      "p.cpi",
      "p.sampleSize",
      "p.complete",
      "p.clientId",
      "c.clientName",
    ])
    .where("p.isDeleted", "=", 0);
}

export const externalProjectsSpec = listSpecOf(externalProjectsList, {
  search: ["i.title", "i.surveyId", "p.projectCode", "p.projectName"],
  filters: {
    provider: inFilter("i.provider", (s) => s.trim().toLowerCase()),
    offerState: inFilter("i.offerState", (s) => s.trim().toLowerCase()),
    clientId: inFilter("p.clientId"),
  },
  sorts: { createdAt: "i.createdAt", provider: "i.provider", projectCode: "p.projectCode" },
  defaultSort: [["i.createdAt", "desc"], ["i.id", "desc"]],
});

type Row = {
  id: string;
  provider: string;
  surveyId: string;
  title: string;
  countryCode: string;
  projectId: string;
  groupProjectId: string;
  remaining: number;
  loi: number;
  ir: number;
  endDate: string | null;
  offerState: string;
  sandbox: number;
  lastCheckedAt: string | null;
  createdAt: string;
  projectCode: string;
  projectName: string;
  projectStatus: number;
  cpi: number;
  sampleSize: number;
  complete: number;
  clientId: string;
  clientName: string;
};

export function externalProjectItem(r: Row): ExternalProjectItem {
  return {
    _id: r.id,
    provider: r.provider as ProviderKey,
    providerName: PROVIDER_NAMES[r.provider as ProviderKey] ?? r.provider,
    surveyId: r.surveyId,
    title: r.title,
    countryCode: r.countryCode,
    projectId: r.projectId,
    projectCode: r.projectCode,
    projectName: r.projectName,
    projectStatus: r.projectStatus,
    groupProjectId: r.groupProjectId,
    clientId: r.clientId,
    clientName: r.clientName,
    cpi: r.cpi,
    remaining: r.remaining,
    loi: r.loi,
    ir: r.ir,
    sampleSize: r.sampleSize,
    complete: r.complete,
    endDate: r.endDate,
    offerState: r.offerState,
    sandbox: r.sandbox === 1,
    lastCheckedAt: r.lastCheckedAt,
    createdAt: r.createdAt,
  };
}
