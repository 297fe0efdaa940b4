/** Projects (part 1, 2.6 and 2.8): handlers of the contracts in shared/api/projects.ts. */
import { actorOf, answer, type Api } from "../http/api.ts";
import { parseWith } from "../http/validate.ts";
import { listResponse } from "../http/list-route.ts";
import type { Ctx } from "../http/context.ts";
import * as P from "../../shared/api/projects.ts";
import { ChildProject, GroupProject } from "../../shared/schemas/project.ts";
import {
  type Caller,
  cloneProject,
  closeByCode,
  createChildProject,
  createGroupProject,
  getProject,
  updateProject,
} from "../domain/projects/projects.ts";
import {
  childListSpec,
  mapProject,
  parentFigures,
  parentListSpec,
  projectsQuery,
} from "../domain/projects/lists.ts";
import { projectRedirects } from "../domain/projects/redirects.ts";
import { returnLinkSets } from "../domain/router/links.ts";
import { ROLE_GROUPS } from "../../shared/permissions.ts";
import { entryBaseOf } from "./supplier-maps.ts";

export const callerOf = (c: Ctx): Caller => ({
  actor: actorOf(c),
  userId: c.get("user").id,
  role: c.get("user").role,
});

export function projectRoutes(api: Api) {
  api.list(P.listProjects, ({ db, c }) => ({
    query: projectsQuery(db, 1),
    spec: parentListSpec,
    map: mapProject,
    enrich: parentFigures(db),
    list: P.projectsList,
    // the client return links of the toolbar's 'url' and 'notify' buttons
    metadata: returnLinkSets(entryBaseOf(c)),
  }));

  api.handle(P.projectOptionsCall, async ({ db, query }) => {
    const search = (query.search ?? "").trim();
    let q = db.selectFrom("projects").select([
      "id",
      "projectCode",
      "projectName",
      "projectType",
      "parentProjectId",
      "projectStatus",
    ])
      .where("isDeleted", "=", 0);
    if (query.type) q = q.where("projectType", "=", Number(query.type));
    if (search) {
      q = q.where((eb) =>
        eb.or([eb("projectCode", "like", `%${search}%`), eb("projectName", "like", `%${search}%`)])
      );
    }
    const rows = await q.orderBy("createdAt", "desc").limit(500).execute();
    return rows.map((r) => ({ ...r, _id: r.id, label: `${r.projectCode} - ${r.projectName}`, value: r.id }));
  });

  // the child lists take the body as it comes but for the page size (at most 100) and their parent
  api.handle(
    P.searchChildProjects,
    ({ db, body, c }) =>
      listResponse(c, { ...body, limit: Math.min(body.limit ?? 20, 100) }, {
        query: projectsQuery(db, 2),
        spec: childListSpec,
        map: mapProject,
        list: P.childSearchList,
      }),
  );

  api.handle(P.listChildProjects, async ({ db, params, body, c }) => {
    const parentId = params.id;
    await getProject(db, parentId);
    return listResponse(c, { ...body, filter: { ...body.filter, parentProjectId: parentId } }, {
      query: projectsQuery(db, 2),
      spec: childListSpec,
      map: mapProject,
      list: P.childProjectsList,
    });
  });

  api.handle(P.childOptionsCall, async ({ db, params }) => {
    const parentId = params.parentProjectId;
    const rows = await db.selectFrom("projects").select(["id", "projectCode", "projectName", "projectStatus"])
      .where("parentProjectId", "=", parentId).where("isDeleted", "=", 0).orderBy("projectCode").execute();
    return rows.map((r) => ({ ...r, _id: r.id, label: r.projectCode, value: r.id }));
  });

  api.handle(P.addProject, async ({ db, body, c }) => {
    const caller = callerOf(c);
    if (body.parentProjectId) {
      const project = await createChildProject(db, caller, parseWith(ChildProject, body));
      return answer(project, "Child project added successfully");
    }
    const project = await createGroupProject(db, caller, parseWith(GroupProject, body));
    return answer(project, "Project added successfully");
  });

  api.handle(P.updateProjectCall, async ({ db, params, body, c }) => {
    const project = await updateProject(db, callerOf(c), params.id, body);
    return answer(project, body.isDeleted ? "Project deleted successfully" : "Project updated successfully");
  });

  /** The project, with its Redirects: the return links and how (and, for editors, with what) to sign them. */
  api.handle(P.getProjectCall, async ({ db, params, c }) => {
    const project = await getProject(db, params.id);
    const mayEdit = (ROLE_GROUPS.PROJECT_EDIT as readonly string[]).includes(c.get("user").role);
    return { ...project, ...(await projectRedirects(db, project, entryBaseOf(c), mayEdit)) };
  });

  api.handle(P.closeProjectByCode, async ({ db, params, body, c }) => {
    const project = await closeByCode(db, callerOf(c), params.projectCode ?? "", body.poNumber);
    return answer(project, "Project closed successfully");
  });

  api.handle(P.cloneProjectCall, async ({ db, params, body, c }) => {
    const result = await cloneProject(db, callerOf(c), params.projectId, body);
    return answer(result, "Project cloned successfully");
  });
}
