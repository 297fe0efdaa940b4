/** Projects (part 1, 2.6 and 2.8): handlers of the contracts in shared/api/projects.ts. */
import { actorOf, answer, type Api } from "../http/api.ts";
import { listResponse } from "../http/list-route.ts";
import type { Ctx } from "../http/context.ts";
import * as P from "../../shared/api/projects.ts";
import { type Caller, getProject } from "../domain/projects/projects.ts";
import { createChildProject, createGroupProject } from "../domain/projects/create.ts";
import { updateProject } from "../domain/projects/update.ts";
import { closeByCode, statusMessage } from "../domain/projects/status.ts";
import { cloneProject } from "../domain/projects/clone.ts";
import {
  childListSpecAt,
  childOptions,
  mapProject,
  parentFigures,
  parentListSpecAt,
  projectOptions,
  projectsListQuery,
} from "../domain/projects/lists.ts";
import { PROJECT_TYPE } from "../../shared/status.ts";
import { projectRedirects, revealSigningKey } from "../domain/projects/redirects.ts";
import { returnLinkSets } from "../domain/router/links.ts";
import { entryBaseOf } from "./supplier-maps.ts";

export const callerOf = (c: Ctx): Caller => ({
  actor: actorOf(c),
  userId: c.get("user").id,
  role: c.get("user").role,
});

export function projectRoutes(api: Api) {
  api.list(P.listProjects, ({ deps, db, c }) => ({
    query: projectsListQuery(db, PROJECT_TYPE.GROUP),
    spec: parentListSpecAt(deps.now),
    map: mapProject,
    enrich: parentFigures(db),
    list: P.projectsList,
    // the client return links of the toolbar's 'url' and 'notify' buttons
    metadata: returnLinkSets(entryBaseOf(c)),
  }));

  api.handle(P.projectOptionsCall, ({ db, query }) => projectOptions(db, query));

  // the child lists take the body as it comes but for the page size (at most 100) and their parent
  api.handle(
    P.searchChildProjects,
    ({ deps, db, body, c }) =>
      listResponse(c, { ...body, limit: Math.min(body.limit ?? 20, 100) }, {
        query: projectsListQuery(db, PROJECT_TYPE.CHILD),
        spec: childListSpecAt(deps.now),
        map: mapProject,
        list: P.childSearchList,
      }),
  );

  api.handle(P.listChildProjects, async ({ deps, db, params, body, c }) => {
    const parentId = params.id;
    await getProject(db, parentId);
    return listResponse(c, { ...body, filter: { ...body.filter, parentProjectId: parentId } }, {
      query: projectsListQuery(db, PROJECT_TYPE.CHILD),
      spec: childListSpecAt(deps.now),
      map: mapProject,
      list: P.childProjectsList,
    });
  });

  api.handle(P.childOptionsCall, ({ db, params }) => childOptions(db, params.parentProjectId));

  api.handle(P.addProject, async ({ db, deps, body, c }) => {
    const caller = callerOf(c);
    // the body is already the child or the group form (ProjectAddBody), validated by the registrar
    if ("parentProjectId" in body) {
      const project = await createChildProject(db, caller, body, deps.now);
      return answer(project, "Child project added successfully");
    }
    const project = await createGroupProject(db, caller, body, deps.now);
    return answer(project, "Project added successfully");
  });

  api.handle(P.updateProjectCall, async ({ deps, params, body, c }) => {
    const project = await updateProject(deps, callerOf(c), params.id, body, deps.now);
    if (project.isDeleted) return answer(project, "Project deleted successfully");
    return answer(
      project,
      statusMessage("Project updated successfully", project.projectStatus, project.childStatus),
    );
  });

  /**
   * The project, with its Redirects: the return links and how to sign them; the signing keys masked,
   * for those who may reveal them.
   */
  api.handle(P.getProjectCall, async ({ db, deps, params, c }) => {
    const project = await getProject(db, params.id);
    const mayReveal = (P.revealSigningKeyCall.roles as readonly string[]).includes(c.get("user").role);
    return { ...project, ...(await projectRedirects(db, project, entryBaseOf(c), mayReveal, deps.now)) };
  });

  /** One child's signing key whole, written to the system log. */
  api.handle(
    P.revealSigningKeyCall,
    ({ db, deps, params, actor }) => revealSigningKey(db, actor(), params.id, deps.now),
  );

  api.handle(P.closeProjectByCode, async ({ deps, params, body, c }) => {
    const project = await closeByCode(deps, callerOf(c), params.projectCode ?? "", body.poNumber, deps.now);
    return answer(
      project,
      statusMessage("Project closed successfully", project.projectStatus, project.childStatus),
    );
  });

  api.handle(P.cloneProjectCall, async ({ db, deps, params, body, c }) => {
    const result = await cloneProject(db, callerOf(c), params.projectId, body, deps.now);
    return answer(result, "Project cloned successfully");
  });
}
