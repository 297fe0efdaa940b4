/**
 * Per-project reports (part 1, 7 "Projects"): streamed CSV files (the children's figures, the
 * supplier maps, respondent identifiers, pre-screen answers), the Security stats drill-down, the
 * Prescreen Data question choices, and the project e-mails.
 */
import { defineCall, returns } from "./contract.ts";
import {
  EmailForm,
  PrescreenReportForm,
  ProjectIdentifiersRequest,
  ProjectRef,
  SupplierReportRequest,
} from "../schemas/project.ts";
import * as v from "valibot";
import type { SecurityFigures } from "../status.ts";

/** A CSV file answer (downloaded, not read as JSON). */
export type CsvFile = Blob;

export const groupReportCall = defineCall({
  method: "POST",
  path: "/admin/project/group/report",
  body: ProjectRef,
  media: "text/csv",
  result: returns<CsvFile>(),
});
export const supplierMapReportCall = defineCall({
  method: "POST",
  path: "/admin/project/suppliermap/report",
  body: ProjectRef,
  media: "text/csv",
  result: returns<CsvFile>(),
});
/** The identifiers of a child project's respondents, or of all of a parent's children. */
export const identifiersReportCall = defineCall({
  method: "POST",
  path: "/admin/project/child/report",
  body: ProjectRef,
  media: "text/csv",
  result: returns<CsvFile>(),
});
/** A project's respondents (a parent's: all its children's), all or one supplier's. */
export const projectIdentifiersReportCall = defineCall({
  method: "POST",
  path: "/admin/project/identifiers/report",
  body: ProjectIdentifiersRequest,
  media: "text/csv",
  result: returns<CsvFile>(),
});
/** One supplier's respondents on the project. */
export const supplierReportCall = defineCall({
  method: "POST",
  path: "/admin/project/supplier/report",
  body: SupplierReportRequest,
  media: "text/csv",
  result: returns<CsvFile>(),
});
/** Every respondent's pre-screen answers, one column per question. */
export const prescreenReportCall = defineCall({
  method: "POST",
  path: "/admin/project/prescreen/report",
  body: ProjectRef,
  media: "text/csv",
  result: returns<CsvFile>(),
});
/** The same for chosen questions and respondents (Prescreen Data dialog). */
export const groupPrescreenReportCall = defineCall({
  method: "POST",
  path: "/admin/project/group/prescreen/report",
  body: PrescreenReportForm,
  media: "text/csv",
  result: returns<CsvFile>(),
});

/** A pre-screen question choice of the Prescreen Data dialog (its value is the report's questionIndex). */
export type GroupQuestion = {
  value: string;
  label: string;
  projectId: string;
  projectCode: string;
  questionId: string;
};
export const groupQuestionsCall = defineCall({
  method: "GET",
  path: "/admin/project/questions/group/:projectId",
  ids: { projectId: "Project" },
  result: returns<GroupQuestion[]>(),
});

export type SecurityRow = SecurityFigures & {
  projectId: string;
  projectCode: string;
  supplierId: string;
  supplierName: string;
};
/** The figures per reason, in total and per child and supplier, and each child's checks. */
export type SecurityStats = {
  projectId: string;
  projectCode: string;
  total: SecurityFigures;
  rows: SecurityRow[];
  checks: { projectId: string; projectCode: string; checks: string[]; devices: string[] }[];
  /**
   * Respondents an API-integrated client's platform gave no survey link (live and test): how many,
   * and the last error with its time (null: none yet).
   */
  clientLinks: ClientLinkFailures;
};
export type ClientLinkFailures = { failures: number; lastError: string; lastAt: string | null };
export const securityStatsCall = defineCall({
  method: "POST",
  path: "/admin/project/security/stat/:projectId",
  ids: { projectId: "Project" },
  result: returns<SecurityStats>(),
});

// ---------------------------------------------------------------- e-mails

/** What an e-mail call answers: how many were queued, and whether a mail server sends them. */
export type Queued = { queued: number; mailServer: boolean };

/** Free text to the project's suppliers. */
export const sendProjectEmailCall = defineCall({
  method: "POST",
  path: "/admin/email/send",
  body: v.object({ ...EmailForm.entries, ...ProjectRef.entries }),
  result: returns<Queued>(),
});
/** Each supplier its entry links. */
export const sendSupplierLinksCall = defineCall({
  method: "POST",
  path: "/admin/email/send/map",
  body: ProjectRef,
  result: returns<Queued>(),
});
/** The client the project's report. */
export const sendClientReportCall = defineCall({
  method: "POST",
  path: "/admin/email/send/report",
  body: ProjectRef,
  result: returns<Queued>(),
});
/** The suppliers a request for quote. */
export const sendRfqCall = defineCall({
  method: "POST",
  path: "/admin/email/send/quota",
  body: ProjectRef,
  result: returns<Queued>(),
});
