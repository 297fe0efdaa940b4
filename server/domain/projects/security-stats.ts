/**
 * Security stats of a project row (part 1, 2.6): why respondents were stopped, per child project
 * and supplier, from the project's own session rows. A drill-down on one project: one GROUP BY
 * over its supplier maps' sessions through the (supplierMapId, status) index.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { REASON } from "../router/outcomes.ts";
import { reportMaps, reportProjects } from "./identifiers-report.ts";
import { SECURITY_FIGURES, type SecurityFigures } from "../../../shared/status.ts";
import type { ClientLinkFailures, SecurityRow, SecurityStats } from "../../../shared/api/project-reports.ts";

const zero = (): SecurityFigures =>
  Object.fromEntries(SECURITY_FIGURES.map((k) => [k, 0])) as SecurityFigures;

const SECURITY_REASON: Record<string, keyof SecurityFigures> = {
  [REASON.duplicate]: "duplicate",
  [REASON.ipLimit]: "ipAddress",
  [REASON.geo]: "geoLocation",
  [REASON.device]: "device",
  [REASON.proxy]: "proxyVpn",
  [REASON.rdScore]: "rd",
};

/** Which figures a group of sessions (one status and reason) adds to. */
function figuresOf(status: string, reason: string): (keyof SecurityFigures)[] {
  const out: (keyof SecurityFigures)[] = status === "closed" ? [] : ["clicked"];
  if (status === "duplicate" || status === "security") {
    out.push("security", SECURITY_REASON[reason] ?? (status === "duplicate" ? "duplicate" : "security"));
  } else if (status === "qualityTerm") out.push(reason === REASON.speeder ? "speeder" : "qualityTerm");
  else if (status === "terminate" && (reason === REASON.excluded || reason === REASON.notIncluded)) {
    out.push("excluded");
  } else if (status === "preScreenTerminate") out.push("preScreenTerminate");
  else if (status === "preScreenDrop") out.push("preScreenDrop");
  // a security session whose reason is unknown still counts once, in `security`
  return [...new Set(out)];
}

export type { SecurityRow };

/** Checks a child project has on (the Project Securities tab), by label. */
const CHECKS: [string, string][] = [
  ["isUniqueIp", "Unique IP"],
  ["isGeoLocation", "Geo location"],
  ["isProxyVpn", "Proxy/VPN"],
  ["isSpeeder", "Speeder"],
  ["isPreScreen", "Pre-screen"],
  ["isExclude", "Exclusions"],
  ["isRDLow", "RD low"],
  ["isRDMedium", "RD medium"],
  ["isRDHigh", "RD high"],
];

export async function securityStats(db: Db, projectId: string): Promise<SecurityStats> {
  const { project, children } = await reportProjects(db, projectId);
  const maps = await reportMaps(db, children.map((c) => c.id));
  const counts = maps.length
    ? await db.selectFrom("sessions")
      .select(["supplierMapId", "status", "reason", sql<number>`count(*)`.as("n")])
      .where("supplierMapId", "in", maps.map((m) => m.id)).where("isTest", "=", 0)
      .groupBy(["supplierMapId", "status", "reason"]).execute()
    : [];
  const byMap = new Map<string, SecurityFigures>();
  for (const c of counts) {
    const f = byMap.get(c.supplierMapId) ?? zero();
    byMap.set(c.supplierMapId, f);
    for (const k of figuresOf(c.status, c.reason)) f[k] += Number(c.n);
  }
  // one row per child project and supplier (a supplier mapped twice over time is one row)
  const rows = new Map<string, SecurityRow>();
  for (const m of maps) {
    const f = byMap.get(m.id);
    const key = `${m.projectId}\u0000${m.supplierId}`;
    const row = rows.get(key) ??
      {
        projectId: m.projectId,
        projectCode: m.projectCode,
        supplierId: m.supplierId,
        supplierName: m.supplierName,
        ...zero(),
      };
    rows.set(key, row);
    if (f) { for (const k of SECURITY_FIGURES) row[k] += f[k]; }
  }
  const total = zero();
  for (const r of rows.values()) for (const k of SECURITY_FIGURES) total[k] += r[k];

  const settings = children.length
    ? await db.selectFrom("projects").selectAll().where("id", "in", children.map((c) => c.id)).execute()
    : [];
  const checks = settings.map((s) => ({
    projectId: s.id,
    projectCode: s.projectCode,
    checks: CHECKS.filter(([k]) => (s as unknown as Record<string, unknown>)[k] === 1).map(([, label]) =>
      label === "Unique IP" && s.maxIPCount
        ? `Unique IP (max ${s.maxIPCount})`
        : label === "Speeder" && s.speedTime
        ? `Speeder (${s.speedTime}s)`
        : label
    ),
    devices: [s.isDesktop && "Desktop", s.isMobile && "Mobile", s.isTablet && "Tablet"].filter(
      Boolean,
    ) as string[],
  })).sort((a, b) => a.projectCode.localeCompare(b.projectCode));

  return {
    projectId: project._id,
    projectCode: project.projectCode,
    total,
    rows: [...rows.values()],
    checks,
    clientLinks: await clientLinkFailures(db, children.map((c) => c.id)),
  };
}

/**
 * Respondents of these child projects that the client's API gave no link (reason client-api): the
 * count and the last error, through the partial index that holds only them (migration 0037).
 */
export async function clientLinkFailures(db: Db, projectIds: string[]): Promise<ClientLinkFailures> {
  if (!projectIds.length) return { failures: 0, lastError: "", lastAt: null };
  const failed = db.selectFrom("sessions").where("reason", "=", REASON.clientApi)
    .where("projectId", "in", projectIds);
  const [count, last] = await Promise.all([
    failed.select(sql<number>`count(*)`.as("n")).executeTakeFirst(),
    failed.select(["detail", "updatedAt"]).orderBy("updatedAt", "desc").limit(1).executeTakeFirst(),
  ]);
  return { failures: Number(count?.n ?? 0), lastError: last?.detail ?? "", lastAt: last?.updatedAt ?? null };
}
