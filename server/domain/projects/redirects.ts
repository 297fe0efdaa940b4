/**
 * The Redirects dialog of a project row: the links its client's survey returns respondents on,
 * made by the router's own builder, and how a secured project's returns are signed. The signing
 * keys (one per child project: the router checks a return against its child's key) are shown masked,
 * and only to those who may edit projects; revealing one whole is its own call, written to the
 * system log (as client and supplier keys are).
 */
import { projectSecret } from "../router/config.ts";
import { clientReturnLinks, SIGNATURE_METHOD } from "../router/links.ts";
import { PROJECT_TYPE } from "../../../shared/status.ts";
import { maskSecret } from "../../../shared/secrets.ts";
import type { ProjectRedirects, RevealedSigningKey, SigningKey } from "../../../shared/api/projects.ts";
import { invalid, notFound } from "../errors.ts";
import { writeLog } from "../audit/log.ts";
import { dateAt } from "../common/clock.ts";
import { MODULE } from "./projects.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";

export type { ProjectRedirects, SigningKey };

/** Why a group project's id gets no key: the router checks each return against its child's key. */
export const GROUP_HAS_NO_KEY = "A group project has no signing key: each of its child projects has its own";

export async function projectRedirects(
  ctx: Pick<Ctx, "db" | "now">,
  input: {
    project: {
      _id: string;
      projectType: number | boolean;
      projectCode: string;
      isDynamicThanksUrl: boolean | number;
    };
    baseUrl: string;
    keysShown: boolean;
  },
): Promise<ProjectRedirects> {
  const { db, now: clock } = ctx;
  const { project, baseUrl, keysShown } = input;
  const children = Number(project.projectType) === PROJECT_TYPE.CHILD
    ? [{
      id: project._id,
      projectCode: project.projectCode,
      isDynamicThanksUrl: !!project.isDynamicThanksUrl,
    }]
    : (await db.selectFrom("projects").select(["id", "projectCode", "isDynamicThanksUrl"])
      .where("parentProjectId", "=", project._id).where("isDeleted", "=", 0).orderBy("projectCode").execute())
      .map((c) => ({ ...c, isDynamicThanksUrl: c.isDynamicThanksUrl === 1 }));
  const keys: SigningKey[] = [];
  for (const c of children) {
    const secured = c.isDynamicThanksUrl;
    keys.push({
      projectId: c.id,
      projectCode: c.projectCode,
      secured,
      // masked: the whole key only through revealSigningKey, which is logged
      key: keysShown && secured ? maskSecret(await projectSecret(db, c.id, clock)) : null,
    });
  }
  return {
    redirects: clientReturnLinks(project, baseUrl),
    signing: { required: !!project.isDynamicThanksUrl, method: SIGNATURE_METHOD, keysShown, keys },
  };
}

/**
 * A child project's signing key, whole, for those who may edit projects: the reveal is written to the
 * system log. Unknown and deleted projects are not found; a group project has no key of its own.
 */
export async function revealSigningKey(
  ctx: WriteCtx,
  id: string,
): Promise<RevealedSigningKey> {
  const { db, actor, now: clock } = ctx;
  const project = await db.selectFrom("projects").select(["id", "projectCode", "projectType"])
    .where("id", "=", id).where("isDeleted", "=", 0).executeTakeFirst();
  if (!project) throw notFound("Project");
  if (Number(project.projectType) !== PROJECT_TYPE.CHILD) throw invalid(GROUP_HAS_NO_KEY);
  const key = await projectSecret(db, project.id, clock);
  await writeLog(db, actor, {
    activity: `Revealed the signing key of project ${project.projectCode}`,
    module: MODULE,
    recordId: project.id,
  }, dateAt(clock));
  return { projectId: project.id, projectCode: project.projectCode, key };
}
