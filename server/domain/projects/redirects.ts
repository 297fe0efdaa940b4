/**
 * The Redirects dialog of a project row: the links its client's survey returns respondents on,
 * made by the router's own builder, and how a secured project's returns are signed. The signing
 * keys (one per child project: the router checks a return against its child's key) are given only
 * to those who may edit projects.
 */
import type { Db } from "../../db/connection.ts";
import { projectSecret } from "../router/config.ts";
import { clientReturnLinks, SIGNATURE_METHOD } from "../router/links.ts";
import { PROJECT_TYPE } from "../../../shared/status.ts";
import type { ProjectRedirects, SigningKey } from "../../../shared/api/projects.ts";

export type { ProjectRedirects, SigningKey };

export async function projectRedirects(
  db: Db,
  project: {
    _id: string;
    projectType: number | boolean;
    projectCode: string;
    isDynamicThanksUrl: boolean | number;
  },
  baseUrl: string,
  keysShown: boolean,
): Promise<ProjectRedirects> {
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
      key: keysShown && secured ? await projectSecret(db, c.id) : null,
    });
  }
  return {
    redirects: clientReturnLinks(project, baseUrl),
    signing: { required: !!project.isDynamicThanksUrl, method: SIGNATURE_METHOD, keysShown, keys },
  };
}
