/**
 * Project signing keys are handled like client and supplier keys: the project record (its Redirects)
 * shows each child's key masked, and POST /admin/project/:id/signing-key reveals one child's key whole
 * to those who may edit projects, writing the reveal to the system log.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectCallGuarded, testApp } from "../helpers/app.ts";
import { liveProject } from "../helpers/router.ts";
import { auditOf } from "../helpers/master.ts";
import { projectSecret } from "../../server/domain/router/config.ts";
import { GROUP_HAS_NO_KEY } from "../../server/domain/projects/redirects.ts";
import { isMasked, maskSecret } from "../../shared/secrets.ts";
import { API } from "../../shared/permissions.ts";
import { revealSigningKeyCall } from "../../shared/api/projects.ts";
import { ROLES } from "../../shared/roles.ts";
import * as Proj from "../../shared/api/projects.ts";

const PROJECT_READERS = API["GET /admin/project/:id"];
const REVEALERS = API["POST /admin/project/:id/signing-key"];

Deno.test("signing keys: the project record never holds a whole key, for any role, child or parent", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t, { project: { isDynamicThanksUrl: true } });
    const key = await projectSecret(t.deps.db, s.child._id);
    for (const role of PROJECT_READERS) {
      for (const id of [s.child._id, s.parent._id]) {
        const r = await t.api(Proj.getProjectCall, { params: { id }, token: await t.tokenFor(role) });
        assertEquals(r.status, 200, `${role}: ${r.text}`);
        assert(!r.text.includes(key), `${role} receives the key of ${id} whole`);
        assert(!r.text.includes(key.slice(0, 12)), `${role} receives part of the key beyond its last 4`);
        const [k] = r.json.result.signing.keys;
        const mayReveal = (REVEALERS as readonly string[]).includes(role);
        assertEquals(r.json.result.signing.keysShown, mayReveal, role);
        // those who may reveal it see it masked (last 4 characters), the others not at all
        assertEquals(k.key, mayReveal ? maskSecret(key) : null, role);
        if (k.key) assert(isMasked(k.key));
      }
    }
  } finally {
    await t.close();
  }
});

Deno.test("signing keys: the reveal call gives one child's key to project editors and logs each reveal", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t, { project: { isDynamicThanksUrl: true } });
    const key = await projectSecret(t.deps.db, s.child._id);
    assertEquals([...REVEALERS].sort(), ["ADMIN", "APIMANAGER", "MANAGER", "SUPERADMIN"]);
    assertEquals(revealSigningKeyCall.roles, REVEALERS);
    for (const role of REVEALERS) {
      const r = await t.api(Proj.revealSigningKeyCall, {
        params: { id: s.child._id },
        token: await t.tokenFor(role),
      });
      assertEquals(r.status, 200, `${role}: ${r.text}`);
      assertEquals(r.json.result, { projectId: s.child._id, projectCode: s.child.projectCode, key });
      assertMatch(r.json.result.key, /^[0-9a-f]{32,}$/);
    }
    const log = (await auditOf(t, s.child._id))
      .filter((l) => l.activity.startsWith("Revealed"));
    assertEquals(
      log.map((l) => [l.module, l.activity, l.name]),
      REVEALERS.map((role) => [
        "Projects",
        `Revealed the signing key of project ${s.child.projectCode}`,
        `Test${role} User`,
      ]),
    );
    // the log holds who revealed which key, never the key
    assert(log.every((l) => !JSON.stringify(l).includes(key)));

    // a second child of the same parent has a key of its own
    const second = await liveProject(t, { parent: s.parent, project: { isDynamicThanksUrl: true } });
    const other = await t.api(Proj.revealSigningKeyCall, {
      params: { id: second.child._id },
      token: await t.tokenFor("ADMIN"),
    });
    assertEquals(other.status, 200);
    assertEquals(other.json.result.key, await projectSecret(t.deps.db, second.child._id));
    assert(other.json.result.key !== key);
  } finally {
    await t.close();
  }
});

Deno.test("signing keys: the reveal is refused to other roles (403), unknown projects are 404, nothing logged", async () => {
  const t = await testApp();
  try {
    const s = await liveProject(t, { project: { isDynamicThanksUrl: true } });

    const others = ROLES.filter((r) => !(REVEALERS as readonly string[]).includes(r));
    assert(others.includes("SUBSCRIBER") && others.includes("ACCOUNTANT") && others.includes("SUPPLIER"));
    for (const role of others) {
      const r = await t.api(Proj.revealSigningKeyCall, {
        params: { id: s.child._id },
        token: await t.tokenFor(role),
      });
      assertEquals(r.status, 403, `${role}: ${r.text}`);
      assert(typeof r.json.message === "string");
    }
    await expectCallGuarded(t, Proj.revealSigningKeyCall, "BDE", { params: { id: s.child._id } });

    const token = await t.tokenFor("ADMIN");
    // ids spelled into the path as they are (malformed, an escaped space): the path is the point
    for (const id of ["0123456789abcdef01234567", "not-an-id", "%20"]) {
      const r = await t.call("POST", `/admin/project/${id}/signing-key`, { token });
      assertEquals(r.status, 404, `${id}: ${r.text}`);
      assertEquals(r.json.message, "Project not found");
    }
    // a group project has no key of its own: each child has one
    const group = await t.api(Proj.revealSigningKeyCall, { params: { id: s.parent._id }, token });
    assertEquals(group.status, 400, group.text);
    assertEquals(group.json.message, GROUP_HAS_NO_KEY);
    // a deleted child is not found
    const gone = await liveProject(t, { parent: s.parent, project: { isDynamicThanksUrl: true } });
    const del = await t.api(Proj.updateProjectCall, {
      params: { id: gone.child._id },
      token,
      body: { isDeleted: true },
    });
    assertEquals(del.status, 200, del.text);
    const r = await t.api(Proj.revealSigningKeyCall, { params: { id: gone.child._id }, token });
    assertEquals(r.status, 404, r.text);

    for (const id of [s.child._id, s.parent._id, gone.child._id]) {
      const log = await auditOf(t, id);
      assertEquals(
        log.filter((l) => l.activity.startsWith("Revealed")),
        [],
        "a refused reveal is not logged",
      );
    }
  } finally {
    await t.close();
  }
});
