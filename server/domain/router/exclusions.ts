/**
 * A project's Exclude/Include rules over a respondent's sessions on other projects: the writer's
 * decision at entry (writer/decide.ts) and routing's skip of a candidate (routing.ts) read the
 * same rules here.
 */
import type { ProjectConfig } from "./config.ts";
import { REASON } from "./outcomes.ts";

/** A respondent's session on another project (its project and status). */
export type OtherSession = { projectId: string; status: string };

/** Why the project's rules keep the respondent out, given their sessions elsewhere, or null. */
export function exclusionRefusal(
  p: Pick<ProjectConfig, "isExclude" | "exclusions">,
  mine: readonly OtherSession[],
): { reason: string; detail: string } | null {
  if (!p.isExclude || !p.exclusions.length) return null;
  const matches = (rule: ProjectConfig["exclusions"][number]) =>
    mine.some((s) =>
      s.projectId === rule.excludedProjectId && (
        (rule.complete && s.status === "complete") ||
        (rule.terminate && (s.status === "terminate" || s.status === "preScreenTerminate")) ||
        (rule.overQuota && s.status === "overQuota") ||
        (rule.dropout && (s.status === "drop" || s.status === "preScreenDrop"))
      )
    );
  const hit = p.exclusions.find((r) => r.isExcluded && matches(r));
  if (hit) return { reason: REASON.excluded, detail: `took part in project ${hit.excludedProjectId}` };
  const includes = p.exclusions.filter((r) => !r.isExcluded);
  if (includes.length && !includes.some(matches)) {
    return { reason: REASON.notIncluded, detail: "not among the included projects' respondents" };
  }
  return null;
}
