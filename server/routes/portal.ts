/**
 * Supplier portal (part 2, "Supplier portal"): handlers of shared/api/portal.ts. Each is scoped to
 * the signed-in user's supplier (`c.get("user").supplierId`), never to an id the caller sends.
 */
import { answer, type Api } from "../http/api.ts";
import type { HttpCtx } from "../http/context.ts";
import { csvResponse, csvStream } from "../http/csv.ts";
import * as P from "../../shared/api/portal.ts";
import {
  mappedProject,
  mappedProjectsQuery,
  mappedProjectsSpec,
  supplierPortalReportMap,
} from "../domain/portal/projects.ts";
import { inventoryListParts, inventorySpec, startInventoryProject } from "../domain/portal/inventory.ts";
import { supplierDashboard } from "../domain/portal/dashboard.ts";
import { identifierColumns, identifierPages } from "../domain/projects/identifiers-report.ts";
import { entryBaseOf } from "./supplier-maps.ts";

/** The supplier the signed-in user belongs to. */
const supplierOf = (c: HttpCtx) => c.get("user").supplierId;
const safe = (s: string) => s.replace(/[^\w-]+/g, "_");

export function portalRoutes(api: Api) {
  api.list(P.listMappedProjects, ({ db, c }) => ({
    query: mappedProjectsQuery(db, supplierOf(c)),
    spec: mappedProjectsSpec,
    map: mappedProject(entryBaseOf(c)),
    list: P.mappedProjectsList,
  }));

  api.list(P.listInventoryProjects, async ({ db, c }) => {
    const { query, map, redirects } = await inventoryListParts(db, supplierOf(c));
    return { query, spec: inventorySpec, map, list: P.inventoryList, metadata: { redirects } };
  });

  api.handle(P.startInventoryProjectCall, async ({ ctx, params, body, c }) => {
    const record = await startInventoryProject(ctx, {
      ...body,
      supplierId: supplierOf(c),
      projectId: params.id,
      entryBase: entryBaseOf(c),
    });
    return answer(record, "Project started successfully");
  });

  api.handle(P.supplierPortalReportCall, async ({ db, body, c }) => {
    const map = await supplierPortalReportMap(db, supplierOf(c), body.projectId, body.supplierMapId);
    return csvResponse(
      c,
      `${map.projectCode}-${safe(map.supplierName) || "supplier"}-identifiers.csv`,
      csvStream(identifierColumns, identifierPages(db, [map])),
    );
  });

  api.handle(P.supplierDashboardCall, ({ db, deps, c }) => supplierDashboard(db, supplierOf(c), deps.now()));
}
