/**
 * The projects grids hand a page's rows over from SQLite as JSON text (projectsListQuery): the rows
 * the API answers are the table's rows as projectRecord made them from the driver's columns, every
 * column of the table included (text of any kind, NULLs, a CPI of 17 significant digits).
 */
import { sql } from "kysely";
import { assert, assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { liveProject } from "../helpers/router.ts";
import {
  mapProject,
  PROJECT_JSON_COLUMNS,
  projectsListQuery,
  projectsQuery,
} from "../../server/domain/projects/lists.ts";
import { PROJECT_TYPE } from "../../shared/status.ts";
import * as P from "../../shared/api/projects.ts";

Deno.test("projects grids: rows cross as JSON text, equal to the driver's columns, every column of the table", async () => {
  const t = await testApp();
  try {
    const db = t.deps.db;
    const setup = await liveProject(t);
    // every column of projects is in the JSON, but cpi (a REAL, read as a column)
    const { rows } = await sql<{ name: string }>`SELECT name FROM pragma_table_info('projects')`.execute(db);
    assertEquals([...PROJECT_JSON_COLUMNS, "cpi"].sort(), rows.map((r) => r.name).sort());
    // values JSON could bend: quotes, line breaks, letters beyond ASCII, NULLs, a CPI of 17 digits
    await db.updateTable("projects").set({
      projectName: 'Naïve "quoted" \\ name\nnext line 😀',
      notes: "\u0001\t<b>&amp;</b>",
      cpi: 0.1 + 0.2,
      startDate: null,
    } as never).where("id", "=", setup.child._id).execute();
    const token = await t.tokenFor("ADMIN");
    const asApi = async (type: number, q: typeof projectsQuery) =>
      (await q(db, type as never).orderBy("projects.id").execute()).map((r) => mapProject(r as never));
    for (const type of [PROJECT_TYPE.GROUP, PROJECT_TYPE.CHILD]) {
      const json = await asApi(type, projectsListQuery), columns = await asApi(type, projectsQuery);
      assertEquals(json, columns);
      assert(json.length > 0);
    }
    const child = (await asApi(PROJECT_TYPE.CHILD, projectsListQuery)).find((r) =>
      r._id === setup.child._id
    )!;
    assertEquals(child.cpi, 0.1 + 0.2);
    assertEquals(child.projectName, 'Naïve "quoted" \\ name\nnext line 😀');
    // through the routes: the group grid and a group's children
    const groups = await t.api(P.listProjects, { token, body: { pageNo: 1, limit: 10 } });
    assertEquals(groups.status, 200, groups.text);
    assertEquals(groups.json.result.data[0]._id, setup.parent._id);
    assertEquals(
      groups.json.result.data[0].clientName,
      (await asApi(PROJECT_TYPE.GROUP, projectsQuery))[0].clientName,
    );
    const children = await t.api(P.listChildProjects, {
      params: { id: setup.parent._id },
      token,
      body: { pageNo: 1, limit: 10 },
    });
    assertEquals(children.status, 200, children.text);
    assertEquals(children.json.result.data[0].projectName, child.projectName);
    assertEquals(children.json.result.data[0].cpi, 0.1 + 0.2);
    // the page's rows are JSON parts built by SQLite, not 70 driver columns
    const compiled = projectsListQuery(db, PROJECT_TYPE.GROUP).compile().sql;
    assert(compiled.includes("json_object("), compiled);
  } finally {
    await t.close();
  }
});
