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
  ProjectPatch,
} from "../../shared/schemas/project.ts";
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
  childCsvColumns,
  childListSpec,
  mapProject,
  parentFigures,
  parentListSpec,
  projectCsvColumns,
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

const projectId = (c: Ctx, name = "id") => idParam(c, "Project", name);

export function projectRoutes(api: Api) {
  api.post("/admin/projects", async (c) => {
    const db = c.get("deps").db;
    return listResponse(c, await body(c, ListBody), {
      query: projectsQuery(db, 1),
      spec: parentListSpec,
      map: mapProject,
      enrich: parentFigures(db),
      csv: { filename: "projects", columns: projectCsvColumns },
      // the client return links of the toolbar's 'url' and 'notify' buttons
      metadata: returnLinkSets(entryBaseOf(c)),
    });
  });

  api.get("/admin/projects/all", async (c) => {
    const db = c.get("deps").db;
    const search = (c.req.query("search") ?? "").trim();
    let q = db.selectFrom("projects").select([
      "id",
      "projectCode",
      "projectName",
      "projectType",
      "parentProjectId",
      "projectStatus",
    ])
      .where("isDeleted", "=", 0);
    if (c.req.query("type")) q = q.where("projectType", "=", Number(c.req.query("type")));
    if (search) {
      q = q.where((eb) =>
        eb.or([eb("projectCode", "like", `%${search}%`), eb("projectName", "like", `%${search}%`)])
      );
    }
    const rows = await q.orderBy("createdAt", "desc").limit(500).execute();
    return ok(
      c,
      rows.map((r) => ({ ...r, _id: r.id, label: `${r.projectCode} - ${r.projectName}`, value: r.id })),
    );
  });

  api.post("/admin/project/childs/search/all", async (c) => {
    const db = c.get("deps").db;
    const input = await body(c, ListBody);
    return listResponse(c, { ...input, limit: Math.min(input.limit ?? 20, 100) }, {
      query: projectsQuery(db, 2),
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
      query: projectsQuery(db, 2),
      spec: childListSpec,
      map: mapProject,
      csv: { filename: "child-projects", columns: childCsvColumns },
    });
  });

  api.get("/admin/project/child/all/:parentProjectId", async (c) => {
    const db = c.get("deps").db;
    const parentId = projectId(c, "parentProjectId");
    const rows = await db.selectFrom("projects").select(["id", "projectCode", "projectName", "projectStatus"])
      .where("parentProjectId", "=", parentId).where("isDeleted", "=", 0).orderBy("projectCode").execute();
    return ok(c, rows.map((r) => ({ ...r, _id: r.id, label: r.projectCode, value: r.id })));
  });

  api.post("/admin/project/add", async (c) => {
    const raw = await body(c, v.record(v.string(), v.unknown()));
    const caller = callerOf(c);
    const db = c.get("deps").db;
    if (raw.parentProjectId) {
      const project = await createChildProject(db, caller, parseWith(ChildProject, raw));
      return ok(c, project, "Child project added successfully");
    }
    const project = await createGroupProject(db, caller, parseWith(GroupProject, raw));
    return ok(c, project, "Project added successfully");
  });

  api.put("/admin/project/update/:id", async (c) => {
    const id = projectId(c);
    const patch = await body(c, ProjectPatch);
    const project = await updateProject(c.get("deps").db, callerOf(c), id, patch);
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
    const project = await closeByCode(
      c.get("deps").db,
      callerOf(c),
      c.req.param("projectCode") ?? "",
      poNumber,
    );
    return ok(c, project, "Project closed successfully");
  });

  api.post("/admin/project/clone/:projectId", async (c) => {
    const opts = await body(c, CloneOptions);
    const result = await cloneProject(c.get("deps").db, callerOf(c), projectId(c, "projectId"), opts);
    return ok(c, result, "Project cloned successfully");
  });
}
