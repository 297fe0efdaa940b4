/** Projects (part 1, 2.6 and 2.8): handlers of the contracts in shared/api/projects.ts. */
import { answer, type Api } from "../http/api.ts";
import { listResponse } from "../http/list-route.ts";
import type { HttpCtx } from "../http/context.ts";
import * as P from "../../shared/api/projects.ts";
import { type CallerCtx, getProject } from "../domain/projects/projects.ts";
import type { Ctx } from "../domain/ctx.ts";
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

/** The call's context with the signed-in user's id and role, which the project rules look at. */
export const callerCtx = (ctx: Ctx, c: HttpCtx): Ctx & CallerCtx => ({
  ...ctx,
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

  api.handle(P.addProject, async ({ ctx, body, c }) => {
    const caller = callerCtx(ctx, c);
    // the body is already the child or the group form (ProjectAddBody), validated by the registrar
    if ("parentProjectId" in body) {
      const project = await createChildProject(caller, body);
      return answer(project, "Child project added successfully");
    }
    const project = await createGroupProject(caller, body);
    return answer(project, "Project added successfully");
  });

  api.handle(P.updateProjectCall, async ({ ctx, params, body, c }) => {
    const project = await updateProject(callerCtx(ctx, c), {
      ...body,
      id: params.id,
    });
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
  api.handle(P.getProjectCall, async ({ ctx, db, params, c }) => {
    const project = await getProject(db, params.id);
    const mayReveal = (P.revealSigningKeyCall.roles as readonly string[]).includes(c.get("user").role);
    return {
      ...project,
      ...(await projectRedirects(ctx, { project, baseUrl: entryBaseOf(c), keysShown: mayReveal })),
    };
  });

  /** One child's signing key whole, written to the system log. */
  api.handle(
    P.revealSigningKeyCall,
    ({ ctx, params }) => revealSigningKey(ctx, params.id),
  );

  api.handle(P.closeProjectByCode, async ({ ctx, params, body, c }) => {
    const project = await closeByCode(callerCtx(ctx, c), {
      projectCode: params.projectCode ?? "",
      poNumber: body.poNumber,
    });
    return answer(
      project,
      statusMessage("Project closed successfully", project.projectStatus, project.childStatus),
    );
  });

  api.handle(P.cloneProjectCall, async ({ ctx, params, body, c }) => {
    const result = await cloneProject(callerCtx(ctx, c), {
      ...body,
      id: params.projectId,
    });
    return answer(result, "Project cloned successfully");
  });
}
