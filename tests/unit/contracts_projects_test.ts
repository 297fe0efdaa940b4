/**
 * The projects area on contracts: every call its routes register is declared once in shared/api
 * (with a permission-table entry) and registered from that declaration, and the project grids' CSV columns
 * are the declared ones (the same headers as before the move).
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { Api } from "../../server/http/api.ts";
import { registerRoutes } from "../../server/routes/index.ts";
import { projectRoutes } from "../../server/routes/projects.ts";
import { projectPartRoutes } from "../../server/routes/project-parts.ts";
import { projectReportRoutes } from "../../server/routes/project-reports.ts";
import { projectEmailRoutes } from "../../server/routes/project-emails.ts";
import { supplierMapRoutes } from "../../server/routes/supplier-maps.ts";
import { API } from "../../shared/permissions.ts";
import * as projects from "../../shared/api/projects.ts";
import * as parts from "../../shared/api/project-parts.ts";
import * as maps from "../../shared/api/supplier-maps.ts";
import * as reports from "../../shared/api/project-reports.ts";

const contracts = [projects, parts, maps, reports].flatMap((m) =>
  Object.values(m).filter((x): x is { key: string } =>
    !!x && typeof x === "object" && "key" in x && "roles" in x
  )
);
const declared = new Set(contracts.map((c) => c.key));

Deno.test("projects area: each call declared once, and the area's routes are exactly its contracts", () => {
  assertEquals(declared.size, contracts.length, "a call declared twice");
  for (const key of declared) assert(key in API, `${key} is not in the permission table`);
  const api = new Api();
  projectRoutes(api);
  projectPartRoutes(api);
  projectReportRoutes(api);
  projectEmailRoutes(api);
  supplierMapRoutes(api);
  assertEquals([...api.registered].sort(), [...declared].sort());
  // and the whole app registers each of them once
  const all = new Api();
  registerRoutes(all);
  for (const key of declared) assertEquals(all.registered.filter((k) => k === key).length, 1, key);
});

Deno.test("projects area: the grids export the declared columns under the old headers", () => {
  const headers = projects.projectsList.columns.map((c) => c.header);
  assertEquals(headers.slice(0, 3), ["Project code", "Project name", "Client"]);
  assertEquals(projects.childProjectsList.columns.map((c) => c.header).slice(0, 4), [
    "Project code",
    "Project name",
    "Country",
    "Client",
  ]);
  assertEquals(projects.childSearchList.columns, projects.childProjectsList.columns);
  assertEquals(projects.childProjectsList.id, "child-projects");
  assertEquals(projects.projectsList.id, "projects");
});
