/**
 * Pre-screen answers as a table: one row per respondent, one column per question (part 1, 2.6
 * "Prescreen Data" and 7 "prescreen report"). The question choices of the Prescreen Data dialog
 * (GET /admin/project/questions/group/:projectId) come from here too, so a chosen `questionIndex`
 * names the same question in the list and in the report.
 *
 * Streamed: answers are read a page at a time with a keyset range on the (projectId, createdAt)
 * index (`(createdAt, id) > last`), or through the sessionId index when the rows are limited to
 * given hash identifiers. One respondent's answers are written together, so a page boundary never
 * splits a row. Test sessions (the test link) are not respondents: their answers are left out.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import { invalid } from "../errors.ts";
import type { CsvColumn } from "../../../shared/list.ts";
import { MSG } from "../../../shared/messages.ts";
import { PROJECT_TYPE, sessionStatusLabel } from "../../../shared/status.ts";
import { listQuestions, questionRecord } from "../library/questions.ts";
import { getProject } from "./projects.ts";
import {
  REPORT_PAGE_SIZE,
  reportDateTime,
  type ReportProject,
  reportProjects,
} from "./identifiers-report.ts";

export type GroupQuestion = {
  /** Position in this list: the `questionIndex` the report takes. */
  value: string;
  label: string;
  projectId: string;
  projectCode: string;
  questionId: string;
  title: string;
};

/**
 * The live pre-screen questions of a child project, or of every live child of a parent, in their
 * order; labels carry the child's code when more than one child has questions.
 */
export async function groupQuestions(db: Db, projectId: string): Promise<GroupQuestion[]> {
  const p = await getProject(db, projectId);
  const children = p.projectType === PROJECT_TYPE.GROUP
    ? await db.selectFrom("projects").select(["id", "projectCode"]).where("parentProjectId", "=", projectId)
      .where("isDeleted", "=", 0).orderBy("projectCode").execute()
    : [{ id: p._id, projectCode: p.projectCode }];
  const perChild = [];
  for (const c of children) {
    const questions = await listQuestions(db, { kind: "project", projectId: c.id });
    if (questions.length) perChild.push({ c, questions });
  }
  const withCode = perChild.length > 1;
  const out: GroupQuestion[] = [];
  for (const { c, questions } of perChild) {
    for (const [i, q] of questions.entries()) {
      out.push({
        value: String(out.length),
        label: `${withCode ? `${c.projectCode} · ` : ""}Q${i + 1}. ${q.title}`,
        projectId: c.id,
        projectCode: c.projectCode,
        questionId: q._id,
        title: q.title,
      });
    }
  }
  return out;
}

type ColumnQuestion = { questionId: string; projectId: string; title: string };

/**
 * One column per question; a question of another child with the same title shares its column (a
 * parent's children usually ask the same questions), never two of one child.
 */
function questionColumns(questions: ColumnQuestion[]) {
  const columns: { key: string; header: string; projects: Set<string> }[] = [];
  const colOf = new Map<string, number>();
  const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, " ");
  for (const q of questions) {
    const key = norm(q.title);
    let i = columns.findIndex((c) => c.key === key && !c.projects.has(q.projectId));
    if (i < 0) {
      const same = columns.filter((c) => c.key === key).length;
      columns.push({ key, header: same ? `${q.title} (${same + 1})` : q.title, projects: new Set() });
      i = columns.length - 1;
    }
    columns[i].projects.add(q.projectId);
    colOf.set(q.questionId, i);
  }
  return { headers: columns.map((c) => c.header || "(untitled question)"), colOf };
}

export type PrescreenRow = {
  projectCode: string;
  supplierName: string;
  sid: string;
  uid: string;
  answeredAt: string;
  status: string;
  answers: string[];
};

export type PrescreenReport = {
  filename: string;
  columns: CsvColumn<PrescreenRow>[];
  pages: AsyncGenerator<PrescreenRow[]>;
};

/**
 * The report of a project: every respondent and every question (deleted questions too when they
 * were answered), or, with `questionIndex` and `uids`, only those questions and respondents.
 */
export async function prescreenReport(
  db: Db,
  input: { projectId: string; questionIndex?: string[]; uids?: string[] },
  pageSize = REPORT_PAGE_SIZE,
): Promise<PrescreenReport> {
  const { project, children } = await reportProjects(db, input.projectId);
  let questions: ColumnQuestion[];
  let only: Set<string> | null = null;
  if (input.questionIndex?.length) {
    const list = await groupQuestions(db, input.projectId);
    const unknown = input.questionIndex.filter((i) => !list[Number(i)]);
    if (unknown.length) {
      const message = `${MSG.questionIndexInvalid}: ${
        unknown.slice(0, 5).join(", ")
      } is not a question of ${project.projectCode}`;
      throw invalid(message, [{ path: "questionIndex", message }]);
    }
    questions = input.questionIndex.map((i) => list[Number(i)]);
    only = new Set(questions.map((q) => q.questionId));
  } else {
    questions = await reportQuestions(db, children);
  }
  const { headers, colOf } = questionColumns(questions);
  const codes = new Map(children.map((c) => [c.id, c.projectCode]));
  const ids = children.map((c) => c.id);
  const pages = input.uids?.length
    ? byIdentifiers(db, ids, input.uids, only, pageSize)
    : byProject(db, ids, only, pageSize);
  return {
    filename: `${project.projectCode}-prescreen.csv`,
    columns: [
      { header: "Project code", value: (r) => r.projectCode },
      { header: "Supplier name", value: (r) => r.supplierName },
      { header: "Supplier identifier", value: (r) => r.sid },
      { header: "User identifier", value: (r) => r.uid },
      { header: "Answered (UTC)", value: (r) => reportDateTime(r.answeredAt) },
      { header: "Status", value: (r) => sessionStatusLabel(r.status) },
      ...headers.map((header, i) => ({ header, value: (r: PrescreenRow) => r.answers[i] ?? "" })),
    ],
    pages: toRows(db, pages, colOf, codes, headers.length),
  };
}

/** Every question of the children in order, then deleted questions that have answers. */
async function reportQuestions(db: Db, children: ReportProject[]): Promise<ColumnQuestion[]> {
  const out: ColumnQuestion[] = [];
  for (const c of children) {
    for (const q of await listQuestions(db, { kind: "project", projectId: c.id })) {
      out.push({ questionId: q._id, projectId: c.id, title: q.title });
    }
  }
  if (!children.length) return out;
  const deleted = await db.selectFrom("questions").selectAll()
    .where("projectId", "in", children.map((c) => c.id)).where("isTempQuestion", "=", 0)
    .where("isDeleted", "=", 1).orderBy("sortOrder").execute();
  for (const row of deleted) {
    const answered = await db.selectFrom("prescreen_answers")
      .innerJoin("sessions", "sessions.id", "prescreen_answers.sessionId").select("prescreen_answers.id")
      .where("prescreen_answers.projectId", "=", row.projectId!).where(
        "prescreen_answers.questionId",
        "=",
        row.id,
      )
      .where("sessions.isTest", "=", 0).limit(1).executeTakeFirst();
    if (answered) {
      out.push({
        questionId: row.id,
        projectId: row.projectId!,
        title: `${questionRecord(row).title} (deleted)`,
      });
    }
  }
  return out;
}

type AnswerRow = {
  id: number;
  sessionId: string;
  projectId: string;
  questionId: string;
  answerText: string;
  createdAt: string;
};
const ANSWER_COLUMNS = ["id", "sessionId", "projectId", "questionId", "answerText", "createdAt"] as const;

/** Answers of each child in the order given, one respondent's answers never split across pages. */
async function* byProject(
  db: Db,
  childIds: string[],
  only: Set<string> | null,
  pageSize: number,
): AsyncGenerator<AnswerRow[]> {
  for (const projectId of childIds) {
    let after: { createdAt: string; id: number } | null = null;
    let carry: AnswerRow[] = [];
    for (;;) {
      let q = db.selectFrom("prescreen_answers").select(ANSWER_COLUMNS).where("projectId", "=", projectId);
      if (only) q = q.where("questionId", "in", [...only]);
      if (after) q = q.where(sql<boolean>`(createdAt, id) > (${after.createdAt}, ${after.id})`);
      const rows = await q.orderBy("createdAt").orderBy("id").limit(pageSize).execute();
      const done = rows.length < pageSize;
      const all = carry.concat(rows);
      let cut = all.length;
      if (!done) {
        // the last respondent may go on in the next page
        const last = all[all.length - 1].sessionId;
        while (cut > 0 && all[cut - 1].sessionId === last) cut--;
      }
      carry = all.slice(cut);
      if (cut > 0) yield all.slice(0, cut);
      if (done) break;
      const tail = rows[rows.length - 1];
      after = { createdAt: tail.createdAt, id: tail.id };
    }
  }
}

/** Answers of the given respondents, in the order given, a chunk of identifiers at a time. */
async function* byIdentifiers(
  db: Db,
  childIds: string[],
  uids: string[],
  only: Set<string> | null,
  pageSize: number,
): AsyncGenerator<AnswerRow[]> {
  if (!childIds.length) return;
  const chunk = Math.max(1, Math.min(500, Math.floor(pageSize / 2)));
  for (let i = 0; i < uids.length; i += chunk) {
    const part = uids.slice(i, i + chunk);
    let q = db.selectFrom("prescreen_answers").select(ANSWER_COLUMNS)
      .where("sessionId", "in", part).where("projectId", "in", childIds);
    if (only) q = q.where("questionId", "in", [...only]);
    const rows = await q.orderBy("sessionId").orderBy("id").execute();
    const order = new Map(part.map((u, n) => [u, n]));
    rows.sort((a, b) => order.get(a.sessionId)! - order.get(b.sessionId)! || a.id - b.id);
    if (rows.length) yield rows;
  }
}

/** Answer rows to one row per respondent, with the session's sid, status and supplier; test sessions skipped. */
async function* toRows(
  db: Db,
  pages: AsyncGenerator<AnswerRow[]>,
  colOf: Map<string, number>,
  codes: Map<string, string>,
  width: number,
): AsyncGenerator<PrescreenRow[]> {
  const supplierNames = new Map<string, string>();
  for await (const answers of pages) {
    const sessionIds = [...new Set(answers.map((a) => a.sessionId))];
    const sessions = new Map(
      (await db.selectFrom("sessions").select(["id", "sid", "status", "supplierId", "isTest"])
        .where("id", "in", sessionIds).execute()).map((s) => [s.id, s]),
    );
    const missing = [...new Set([...sessions.values()].map((s) => s.supplierId))]
      .filter((id) => !supplierNames.has(id));
    if (missing.length) {
      for (
        const s of await db.selectFrom("suppliers").select(["id", "supplierName"]).where("id", "in", missing)
          .execute()
      ) {
        supplierNames.set(s.id, s.supplierName);
      }
    }
    const out: PrescreenRow[] = [];
    let row: PrescreenRow | null = null;
    for (const a of answers) {
      if (sessions.get(a.sessionId)?.isTest) continue;
      if (!row || row.uid !== a.sessionId) {
        const s = sessions.get(a.sessionId);
        row = {
          projectCode: codes.get(a.projectId) ?? "",
          supplierName: s ? supplierNames.get(s.supplierId) ?? "" : "",
          sid: s?.sid ?? "",
          uid: a.sessionId,
          answeredAt: a.createdAt,
          status: s?.status ?? "",
          answers: new Array(width).fill(""),
        };
        out.push(row);
      }
      const col = colOf.get(a.questionId);
      if (col !== undefined) row.answers[col] = a.answerText;
    }
    if (out.length) yield out;
  }
}
