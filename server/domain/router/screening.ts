/**
 * What a pre-screen comes to, given the member's known answers (profiles.ts) and the form's: the
 * questions still to ask, or what settles it (a known answer that disqualifies, or every question
 * answered). Pure: the router hands a settled pre-screen to the writer, with the entry when the
 * known answers settle it there (one decision, one write), or on its own after the page's answers.
 */
import type { MapConfig, ProjectConfig } from "./config.ts";
import { evaluate } from "./prescreen.ts";
import { answeredRows, type Known, knownFailure, toAsk, withKnown } from "./profiles.ts";
import type { Screen } from "./writer/types.ts";

export type Screening = { kind: "ask"; missing: string[] } | { kind: "settled"; screen: Screen };

export function screening(x: {
  project: ProjectConfig;
  map: MapConfig;
  /** Whose pre-screen: the supplier and its member id (their answers are kept under them). */
  who: { supplierId: string; memberId: string };
  known: Known;
  /** The page's answers (none at entry). */
  form: (name: string) => string[];
}): Screening {
  const { project, map, who, known, form } = x;
  const lang = project.languageId, type = map.supplierType;
  const failed = knownFailure(project.questions, type, known, lang);
  if (failed) {
    return {
      kind: "settled",
      screen: { passed: false, detail: failed.detail, answers: failed.rows, quotaCells: [] },
    };
  }
  const ev = evaluate(
    project.questions,
    type,
    project.quotas,
    withKnown(project.questions, type, known, form),
    lang,
  );
  if (!ev.complete) return { kind: "ask", missing: ev.missing };
  const asked = new Set(toAsk(project.questions, type, known).map((q) => q.id));
  return {
    kind: "settled",
    screen: {
      passed: ev.passed,
      detail: ev.detail,
      answers: ev.rows,
      quotaCells: ev.quotaCells,
      profiles: answeredRows(project.questions, ev.rows, { ...who, asked }),
    },
  };
}
