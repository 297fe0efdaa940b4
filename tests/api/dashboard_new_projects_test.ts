/**
 * The dashboard's "New projects" (Project Status chart, `active`) counts only projects that still
 * exist (issue 21, item 7): a group deleted, or whose every survey project was deleted, is not new;
 * a group with one survey project left, or none added yet, is.
 */
import { assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { makeChild, makeClient, makeParent } from "../helpers/fixtures.ts";
import * as Dash from "../../shared/api/dashboard.ts";
import * as P from "../../shared/api/projects.ts";

type StatusPoint = { date: string; active: number };

Deno.test("dashboard: a deleted project is not counted as new", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const today = new Date(t.deps.now()).toISOString().slice(0, 10);
    const newToday = async (clientId?: string) => {
      const r = await t.api(Dash.statusChartCall, {
        token,
        body: clientId ? { type: 1, clientId } : { type: 1 },
      });
      assertEquals(r.status, 200, r.text);
      return (r.json.result as StatusPoint[]).find((p) => p.date === today)?.active;
    };
    const remove = async (id: string) => {
      const r = await t.api(P.updateProjectCall, { params: { id }, token, body: { isDeleted: true } });
      assertEquals(r.status, 200, r.text);
    };

    const kept = await makeParent(t);
    await makeChild(t, kept);
    const emptied = await makeParent(t, { clientId: (await makeClient(t))._id });
    const onlyChild = await makeChild(t, emptied);
    const deleted = await makeParent(t);
    await makeChild(t, deleted);
    const halved = await makeParent(t);
    const first = await makeChild(t, halved);
    await makeChild(t, halved, { projectName: "Brand tracker UK", countryId: "GB" });
    await makeParent(t); // no survey project yet: a new project being set up
    assertEquals(await newToday(), 5);
    assertEquals(await newToday(emptied.clientId), 1);

    await remove(deleted._id); // the group, and its survey project with it
    assertEquals(await newToday(), 4);
    await remove(onlyChild._id); // its group's only survey project
    assertEquals(await newToday(), 3, "a group whose only survey project was deleted is not new");
    assertEquals(await newToday(emptied.clientId), 0, "nor under its client's filter");
    await remove(first._id); // one of two: the project goes on
    assertEquals(await newToday(), 3);
  } finally {
    await t.close();
  }
});
