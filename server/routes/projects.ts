import * as v from "valibot";
import type { Api } from "../http/api.ts";
import { actorOf } from "../http/api.ts";
import { body, idParam, parseWith } from "../http/validate.ts";
import { ok } from "../http/respond.ts";
import { listResponse } from "../http/list-route.ts";
import type { Ctx } from "../http/context.ts";
import { ListBody } from "../../shared/list.ts";
import {
  ChildProject,
  CloneOptions,
  ClosePo,
  GroupProject,
  ProjectOptionsQuery,
  ProjectPatch,
} from "../../shared/schemas/project.ts";
import { type Caller, getProject } from "../domain/projects/projects.ts";
import { createChildProject, createGroupProject } from "../domain/projects/create.ts";
import { updateProject } from "../domain/projects/update.ts";
import { closeByCode } from "../domain/projects/status.ts";
import { cloneProject } from "../domain/projects/clone.ts";
import {
  childCsvColumns,
  childListSpec,
  childOptions,
  mapProject,
  parentFigures,
  parentListSpec,
  projectCsvColumns,
  projectOptions,
  projectsQuery,
} from "../domain/projects/lists.ts";
import { PROJECT_TYPE } from "../../shared/status.ts";
import { projectRedirects } from "../domain/projects/redirects.ts";
import { returnLinkSets } from "../domain/router/links.ts";
import { ROLE_GROUPS } from "../../shared/permissions.ts";
import { entryBaseOf } from "./supplier-maps.ts";

export const callerOf = (c: Ctx): Caller => ({
  actor: actorOf(c),
  userId: c.get("user").id,
  role: c.get("user").role,
});

const projectId = (c: Ctx, name = "id") => idParam(c, "Project", name);

export function projectRoutes(api: Api) {
  api.post("/admin/projects", async (c) => {
    const db = c.get("deps").db;
    return listResponse(c, await body(c, ListBody), {
      query: projectsQuery(db, PROJECT_TYPE.GROUP),
      spec: parentListSpec,
      map: mapProject,
      enrich: parentFigures(db),
      csv: { filename: "projects", columns: projectCsvColumns },
      // the client return links of the toolbar's 'url' and 'notify' buttons
      metadata: returnLinkSets(entryBaseOf(c)),
    });
  });

  api.get("/admin/projects/all", async (c) => {
    const query = parseWith(ProjectOptionsQuery, c.req.query());
    return ok(c, await projectOptions(c.get("deps").db, query));
  });

  api.post("/admin/project/childs/search/all", async (c) => {
    const db = c.get("deps").db;
    const input = await body(c, ListBody);
    return listResponse(c, { ...input, limit: Math.min(input.limit ?? 20, 100) }, {
      query: projectsQuery(db, PROJECT_TYPE.CHILD),
      spec: childListSpec,
      map: mapProject,
      csv: { filename: "child-projects", columns: childCsvColumns },
    });
  });

  api.post("/admin/project/childs/:id", async (c) => {
    const db = c.get("deps").db;
    const parentId = projectId(c);
    await getProject(db, parentId);
    const input = await body(c, ListBody);
    return listResponse(c, { ...input, filter: { ...input.filter, parentProjectId: parentId } }, {
      query: projectsQuery(db, PROJECT_TYPE.CHILD),
      spec: childListSpec,
      map: mapProject,
      csv: { filename: "child-projects", columns: childCsvColumns },
    });
  });

  api.get("/admin/project/child/all/:parentProjectId", async (c) => {
    return ok(c, await childOptions(c.get("deps").db, projectId(c, "parentProjectId")));
  });

  api.post("/admin/project/add", async (c) => {
    const raw = await body(c, v.record(v.string(), v.unknown()));
    const caller = callerOf(c);
    const { db, now } = c.get("deps");
    if (raw.parentProjectId) {
      const project = await createChildProject(db, caller, parseWith(ChildProject, raw), now);
      return ok(c, project, "Child project added successfully");
    }
    const project = await createGroupProject(db, caller, parseWith(GroupProject, raw), now);
    return ok(c, project, "Project added successfully");
  });

  api.put("/admin/project/update/:id", async (c) => {
    const id = projectId(c);
    const patch = await body(c, ProjectPatch);
    const { db, now } = c.get("deps");
    const project = await updateProject(db, callerOf(c), id, patch, now);
    return ok(c, project, patch.isDeleted ? "Project deleted successfully" : "Project updated successfully");
  });

  /** The project, with its Redirects: the return links and how (and, for editors, with what) to sign them. */
  api.get("/admin/project/:id", async (c) => {
    const db = c.get("deps").db;
    const project = await getProject(db, projectId(c));
    const mayEdit = (ROLE_GROUPS.PROJECT_EDIT as readonly string[]).includes(c.get("user").role);
    return ok(c, { ...project, ...(await projectRedirects(db, project, entryBaseOf(c), mayEdit)) });
  });

  api.put("/admin/project/code/update/:projectCode", async (c) => {
    const { poNumber } = await body(c, ClosePo);
    const { db, now } = c.get("deps");
    const project = await closeByCode(db, callerOf(c), c.req.param("projectCode") ?? "", poNumber, now);
    return ok(c, project, "Project closed successfully");
  });

  api.post("/admin/project/clone/:projectId", async (c) => {
    const opts = await body(c, CloneOptions);
    const { db, now } = c.get("deps");
    const result = await cloneProject(db, callerOf(c), projectId(c, "projectId"), opts, now);
    return ok(c, result, "Project cloned successfully");
  });
}
