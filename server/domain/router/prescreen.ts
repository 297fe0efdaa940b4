/**
 * Pre-screen questions: which options a respondent sees, whether the answers qualify, the rows kept
 * for the prescreen report, and the project quota cells the answers fall in.
 *
 * Option flags: `enable` false hides the option; `diy` / `local` show it to DIY (1) / Local (2)
 * suppliers' respondents; `formvalidate` false marks a disqualifying answer (choosing it ends the
 * session as a pre-screen terminate). A TEXT question needs a non-blank answer.
 */
import { normText, type PrescreenOption, type PrescreenQuestion, type QuotaDef } from "./config.ts";
import { SUPPLIER_TYPE } from "../../../shared/status.ts";

export type QuotaCellRef = { quotaId: string; quotaOptionId: string };
export type AnswerRow = { questionId: string; answer: string; answerText: string; passed: number };

export function visibleOptions(q: PrescreenQuestion, supplierType: number): PrescreenOption[] {
  return q.options.filter((o) =>
    o.enable && o.title && (supplierType === SUPPLIER_TYPE.LOCAL ? o.local : o.diy)
  );
}

/** The title in `lang`, else English, else the question's own language, else any. */
export function titleIn(q: PrescreenQuestion, lang: string): string {
  return q.title[lang] ?? q.title.en ?? q.title[q.languageId] ?? Object.values(q.title)[0] ?? "";
}

/** Questions worth asking: a choice question needs at least one visible option. */
export function askable(questions: PrescreenQuestion[], supplierType: number): PrescreenQuestion[] {
  return questions.filter((q) => q.type === "TEXT" || visibleOptions(q, supplierType).length > 0);
}

export type Evaluation =
  | { complete: false; missing: string[] }
  | {
    complete: true;
    passed: boolean;
    /** Why it failed (question title and answer). */
    detail: string;
    rows: AnswerRow[];
    quotaCells: QuotaCellRef[];
  };

/** Reads the submitted form: every askable question answered, else the missing ones. */
export function evaluate(
  questions: PrescreenQuestion[],
  supplierType: number,
  quotas: QuotaDef[],
  form: (name: string) => string[],
  lang: string,
): Evaluation {
  const asked = askable(questions, supplierType);
  const missing: string[] = [];
  const rows: AnswerRow[] = [];
  const chosenTitles: string[] = [];
  let failed = "";
  for (const q of asked) {
    const values = form(`q_${q.id}`).map((s) => s.trim()).filter(Boolean);
    if (q.type === "TEXT") {
      const text = (values[0] ?? "").slice(0, 500);
      if (!text) {
        missing.push(q.id);
        continue;
      }
      rows.push({ questionId: q.id, answer: JSON.stringify({ text }), answerText: text, passed: 1 });
      continue;
    }
    const visible = visibleOptions(q, supplierType);
    const picked = visible.filter((o) => values.includes(o._id));
    const single = q.type !== "CHECKBOX";
    if (!picked.length || (single && picked.length > 1)) {
      missing.push(q.id);
      continue;
    }
    const bad = picked.find((o) => !o.formvalidate);
    if (bad && !failed) failed = `${titleIn(q, lang)}: ${bad.title}`;
    chosenTitles.push(...picked.map((o) => o.title));
    rows.push({
      questionId: q.id,
      answer: JSON.stringify(picked.map((o) => o._id)),
      answerText: picked.map((o) => o.title).join("; "),
      passed: bad ? 0 : 1,
    });
  }
  if (missing.length) return { complete: false, missing };
  return {
    complete: true,
    passed: !failed,
    detail: failed,
    rows,
    quotaCells: quotaCellsFor(quotas, chosenTitles),
  };
}

/**
 * The quota cells the answers fall in. Project quotas are set on qualification options and
 * pre-screen questions carry their own options, so an answer counts for a quota option with the
 * same text (case and spacing aside): "Female" answers fill the Gender quota's "Female" cell. A cell
 * over a set of options of one question ("18-24 or 25-34") takes an answer matching any of them; an
 * interlocked cell (Female x 18-34) takes answers matching one option of each of its qualifications.
 * The cell's id is its quotaOptionId, so the writer counts and limits it like any other cell.
 */
export function quotaCellsFor(quotas: QuotaDef[], chosenTitles: string[]): QuotaCellRef[] {
  const out: QuotaCellRef[] = [];
  const wanted = chosenTitles.map(normText);
  for (const q of quotas) {
    for (const cell of q.cells) {
      if (cell.groups.every((g) => wanted.some((t) => g.has(t)))) {
        out.push({ quotaId: q.id, quotaOptionId: cell.id });
      }
    }
  }
  return out;
}
