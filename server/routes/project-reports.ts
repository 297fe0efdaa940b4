/**
 * Per-project reports (part 1, 7 "Projects" and "Suppliers and supplier maps"), each a streamed CSV:
 * the children's figures, the supplier maps, respondent identifiers (child and supplier reports),
 * pre-screen answers; and the Security stats drill-down. Handlers of shared/api/project-reports.ts.
 */
import type { Api } from "../http/api.ts";
import { csvResponse, csvStream } from "../http/csv.ts";
import * as R from "../../shared/api/project-reports.ts";
import { parseIdentifiers } from "../../shared/schemas/project.ts";
import {
  groupReportColumns,
  groupReportPages,
  supplierMapReportColumns,
  supplierMapReportPages,
} from "../domain/projects/reports.ts";
import {
  identifierColumns,
  identifierPages,
  projectIdentifierMaps,
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
  api.handle(R.groupReportCall, async ({ db, body, c }) => {
    const p = await getProject(db, body.projectId);
    return csvResponse(
      c,
      `${p.projectCode}-projects.csv`,
      csvStream(groupReportColumns, groupReportPages(db, p._id)),
    );
  });

  api.handle(R.supplierMapReportCall, async ({ db, body, c }) => {
    const p = await getProject(db, body.projectId);
    return csvResponse(
      c,
      `${p.projectCode}-suppliers.csv`,
      csvStream(supplierMapReportColumns, supplierMapReportPages(db, p._id, entryBaseOf(c))),
    );
  });

  // the identifiers of a child project's respondents, or of all of a parent's children
  api.handle(R.identifiersReportCall, async ({ db, body, c }) => {
    const { project, children } = await reportProjects(db, body.projectId);
    const maps = await reportMaps(db, children.map((ch) => ch.id));
    return csvResponse(
      c,
      `${project.projectCode}-identifiers.csv`,
      csvStream(identifierColumns, identifierPages(db, maps)),
    );
  });

  // a project's respondents, all or one supplier's (the same rows as the child report)
  api.handle(R.projectIdentifiersReportCall, async ({ db, body, c }) => {
    const { project, maps, supplierName } = await projectIdentifierMaps(db, body.projectData, body.supplier);
    const who = supplierName === null ? "" : `-${safe(supplierName) || "supplier"}`;
    return csvResponse(
      c,
      `${project.projectCode}${who}-identifiers.csv`,
      csvStream(identifierColumns, identifierPages(db, maps)),
    );
  });

  // one supplier's respondents on the project
  api.handle(R.supplierReportCall, async ({ db, body, c }) => {
    const { map } = await supplierReportMap(db, body.projectId, body.supplierMapId);
    return csvResponse(
      c,
      `${map.projectCode}-${safe(map.supplierName) || "supplier"}-identifiers.csv`,
      csvStream(identifierColumns, identifierPages(db, [map])),
    );
  });

  // every respondent's pre-screen answers, one column per question
  api.handle(R.prescreenReportCall, async ({ db, body, c }) => {
    const report = await prescreenReport(db, { projectId: body.projectId });
    return csvResponse(c, report.filename, csvStream(report.columns, report.pages));
  });

  // the same for chosen questions and respondents (Prescreen Data dialog)
  api.handle(R.groupPrescreenReportCall, async ({ db, body, c }) => {
    const report = await prescreenReport(db, {
      projectId: body.projectId,
      questionIndex: body.questionIndex,
      uids: parseIdentifiers(body.userIdentifier),
    });
    return csvResponse(c, report.filename, csvStream(report.columns, report.pages));
  });

  api.handle(R.securityStatsCall, ({ db, params }) => securityStats(db, params.projectId));
}
