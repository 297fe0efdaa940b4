/**
 * Per-project reports (part 1, 7 "Projects" and "Suppliers and supplier maps"), each a streamed CSV:
 * the children's figures, the supplier maps, respondent identifiers (child and supplier reports),
 * pre-screen answers; and the Security stats drill-down.
 */
import type { Api } from "../http/api.ts";
import { body, idParam } from "../http/validate.ts";
import { ok } from "../http/respond.ts";
import { csvResponse, csvStream } from "../http/csv.ts";
import {
  parseIdentifiers,
  PrescreenReportForm,
  ProjectRef,
  SupplierReportRequest,
} from "../../shared/schemas/project.ts";
import {
  groupReportColumns,
  groupReportPages,
  supplierMapReportColumns,
  supplierMapReportPages,
} from "../domain/projects/reports.ts";
import {
  identifierColumns,
  identifierPages,
  reportMaps,
  reportProjects,
  supplierReportMap,
} from "../domain/projects/identifiers-report.ts";
import { prescreenReport } from "../domain/projects/prescreen-report.ts";
import { securityStats } from "../domain/projects/security-stats.ts";
import { getProject } from "../domain/projects/projects.ts";
import { entryBaseOf } from "./supplier-maps.ts";

const safe = (s: string) => s.replace(/[^\w-]+/g, "_");

export function projectReportRoutes(api: Api) {
  api.post("/admin/project/group/report", async (c) => {
    const { projectId } = await body(c, ProjectRef);
    const db = c.get("deps").db;
    const p = await getProject(db, projectId);
    return csvResponse(
      c,
      `${p.projectCode}-projects.csv`,
      csvStream(groupReportColumns, groupReportPages(db, p._id)),
    );
  });

  api.post("/admin/project/suppliermap/report", async (c) => {
    const { projectId } = await body(c, ProjectRef);
    const db = c.get("deps").db;
    const p = await getProject(db, projectId);
    return csvResponse(
      c,
      `${p.projectCode}-suppliers.csv`,
      csvStream(supplierMapReportColumns, supplierMapReportPages(db, p._id, entryBaseOf(c))),
    );
  });

  // the identifiers of a child project's respondents, or of all of a parent's children
  api.post("/admin/project/child/report", async (c) => {
    const { projectId } = await body(c, ProjectRef);
    const db = c.get("deps").db;
    const { project, children } = await reportProjects(db, projectId);
    const maps = await reportMaps(db, children.map((ch) => ch.id));
    return csvResponse(
      c,
      `${project.projectCode}-identifiers.csv`,
      csvStream(identifierColumns, identifierPages(db, maps)),
    );
  });

  // one supplier's respondents on the project
  api.post("/admin/project/supplier/report", async (c) => {
    const { projectId, supplierMapId } = await body(c, SupplierReportRequest);
    const db = c.get("deps").db;
    const { map } = await supplierReportMap(db, projectId, supplierMapId);
    return csvResponse(
      c,
      `${map.projectCode}-${safe(map.supplierName) || "supplier"}-identifiers.csv`,
      csvStream(identifierColumns, identifierPages(db, [map])),
    );
  });

  // every respondent's pre-screen answers, one column per question
  api.post("/admin/project/prescreen/report", async (c) => {
    const { projectId } = await body(c, ProjectRef);
    const report = await prescreenReport(c.get("deps").db, { projectId });
    return csvResponse(c, report.filename, csvStream(report.columns, report.pages));
  });

  // the same for chosen questions and respondents (Prescreen Data dialog)
  api.post("/admin/project/group/prescreen/report", async (c) => {
    const input = await body(c, PrescreenReportForm);
    const report = await prescreenReport(c.get("deps").db, {
      projectId: input.projectId,
      questionIndex: input.questionIndex,
      uids: parseIdentifiers(input.userIdentifier),
    });
    return csvResponse(c, report.filename, csvStream(report.columns, report.pages));
  });

  api.post("/admin/project/security/stat/:projectId", async (c) => {
    return ok(c, await securityStats(c.get("deps").db, idParam(c, "Project", "projectId")));
  });
}
