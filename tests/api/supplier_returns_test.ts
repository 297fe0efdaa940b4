/**
 * Issue 21, item 4: respondents go back to their panel. A map's empty return link falls back to its
 * supplier's own for that status (placeholders filled as for map links; the map's link wins when
 * set), the router's cached map follows a change of the supplier record, a new map's form starts
 * with the supplier's links, and a map whose supplier and map both lack a link is flagged.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { back, enter, liveProject, uidOf } from "../helpers/router.ts";
import * as Maps from "../../shared/api/supplier-maps.ts";
import * as Sup from "../../shared/api/suppliers.ts";

const HOME = "https://home.panel.example";
/** A supplier's own five return links. */
const SUPPLIER_RETURNS = {
  redirectComplete: `${HOME}/c?sid=[sid]`,
  redirectTerminate: `${HOME}/t?sid=[sid]&pid=[pid]&uid=[uid]`,
  redirectQuotaFull: `${HOME}/q?sid={sid}`,
  redirectQualityTerm: `${HOME}/f?sid=[sid]`,
  redirectSurveyClose: `${HOME}/closed?sid=[sid]`,
};
const NO_RETURNS = {
  redirectComplete: "",
  redirectTerminate: "",
  redirectQuotaFull: "",
  redirectQualityTerm: "",
  redirectSurveyClose: "",
};

/** A live child whose map sets only its Complete link; its supplier has all five. */
async function setup(t: TestApp, supplierReturns: Record<string, string> = SUPPLIER_RETURNS) {
  return await liveProject(t, {
    supplier: supplierReturns,
    map: { ...NO_RETURNS, redirectComplete: "https://map.example/done?sid=[sid]" },
  });
}

async function finish(t: TestApp, mapId: string, sid: string, status: string) {
  const uid = uidOf((await enter(t, mapId, sid)).location);
  return { uid, r: await back(t, uid, status) };
}

Deno.test("supplier returns: each status the map leaves empty goes back to the supplier's own link, placeholders filled; the map's link wins where set", async () => {
  const t = await testApp();
  try {
    const s = await setup(t);
    const complete = await finish(t, s.mapId, "r-c", "c");
    assertEquals(complete.r.location, "https://map.example/done?sid=r-c", "the map's own link wins");
    const terminate = await finish(t, s.mapId, "r-t", "t");
    assertEquals(
      terminate.r.location,
      `${HOME}/t?sid=r-t&pid=${s.child.projectCode}&uid=${terminate.uid}`,
      "[sid], [pid] and [uid] are replaced as in a map's link",
    );
    assertEquals((await finish(t, s.mapId, "r-q", "q")).r.location, `${HOME}/q?sid=r-q`);
    assertEquals((await finish(t, s.mapId, "r-f", "f")).r.location, `${HOME}/f?sid=r-f`);
    // the map stops taking traffic: the survey-close return is the supplier's too
    const token = await t.tokenFor("ADMIN");
    await t.api(Maps.updateSupplierMapCall, {
      params: { id: s.mapId },
      token,
      body: { allowTraffic: false },
    });
    assertEquals((await enter(t, s.mapId, "r-x")).location, `${HOME}/closed?sid=r-x`);
  } finally {
    await t.close();
  }
});

Deno.test("supplier returns: with no link on the map nor the supplier, the respondent sees Samplex's own page", async () => {
  const t = await testApp();
  try {
    const s = await setup(t, { ...NO_RETURNS });
    const terminate = await finish(t, s.mapId, "r-t", "t");
    assertEquals(terminate.r.status, 200);
    assertEquals(terminate.r.location, "");
  } finally {
    await t.close();
  }
});

Deno.test("supplier returns: the router's cached map follows a change of the supplier's links at once", async () => {
  const t = await testApp();
  try {
    const supplier = await makeSupplier(t, SUPPLIER_RETURNS);
    const s = await liveProject(t, { supplierId: supplier._id, map: NO_RETURNS });
    assertEquals((await finish(t, s.mapId, "r-1", "q")).r.location, `${HOME}/q?sid=r-1`);
    const token = await t.tokenFor("SUPERADMIN");
    const r = await t.api(Sup.updateSupplierCall, {
      params: { id: supplier._id },
      token,
      body: {
        supplierType: 1,
        supplierName: supplier.supplierName,
        supplierShortCode: supplier.supplierShortCode,
        supplierEmail: supplier.supplierEmail,
        supplierRuleCPI: supplier.supplierRuleCPI,
        countryId: "US",
        ...SUPPLIER_RETURNS,
        redirectQuotaFull: "https://moved.panel.example/full?sid=[sid]",
      },
    });
    assertEquals(r.status, 200, r.text);
    assertEquals(
      (await finish(t, s.mapId, "r-2", "q")).r.location,
      "https://moved.panel.example/full?sid=r-2",
    );
  } finally {
    await t.close();
  }
});

Deno.test("supplier returns: a new map's form starts with the supplier's links (GET /admin/supplierMap?supplierId=)", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const supplier = await makeSupplier(t, SUPPLIER_RETURNS);
    const r = await t.api(Maps.supplierMapDefaultsCall, { query: { supplierId: supplier._id }, token });
    assertEquals(r.status, 200, r.text);
    assertEquals(r.json.result.supplierId, supplier._id);
    for (const [k, url] of Object.entries(SUPPLIER_RETURNS)) assertEquals(r.json.result[k], url, k);
    assertEquals(r.json.result.allowTraffic, true, "the spec's defaults stay");
    assertEquals(r.json.result.supplierCPI, 0);
    // without a supplier: the spec's empty form
    const empty = await t.api(Maps.supplierMapDefaultsCall, { token });
    assertEquals(empty.json.result.redirectTerminate, "");
    // refusals: an unknown supplier, a malformed id, a deleted one, a supplier user
    assertEquals(
      (await t.api(Maps.supplierMapDefaultsCall, {
        query: { supplierId: "0123456789abcdef01234567" },
        token,
      })).status,
      404,
    );
    assertEquals(
      (await t.api(Maps.supplierMapDefaultsCall, { query: { supplierId: "x'--" }, token })).status,
      400,
    );
    const gone = await makeSupplier(t, SUPPLIER_RETURNS);
    await t.api(Sup.updateSupplierCall, {
      params: { id: gone._id },
      as: "SUPERADMIN",
      body: { isDeleted: true },
    });
    assertEquals(
      (await t.api(Maps.supplierMapDefaultsCall, { query: { supplierId: gone._id }, token })).status,
      404,
    );
    const supplierUser = await t.tokenFor("SUPPLIER");
    assertEquals(
      (await t.api(Maps.supplierMapDefaultsCall, {
        query: { supplierId: supplier._id },
        token: supplierUser,
      })).status,
      403,
    );
  } finally {
    await t.close();
  }
});

Deno.test("supplier returns: the Suppliers tab's list flags each status for which neither the map nor its supplier has a link", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const covered = await setup(t);
    const bare = await liveProject(t, {
      parent: covered.parent,
      supplier: { ...NO_RETURNS, redirectComplete: `${HOME}/c?sid=[sid]` },
      map: { ...NO_RETURNS, redirectQualityTerm: "https://map.example/f?sid=[sid]" },
    });
    const list = async (projectId: string) =>
      (await t.api(Maps.listSupplierMapsCall, { token, body: { projectId, search: "" } })).json.result;
    assertEquals((await list(covered.child._id))[0].returnUrlsMissing, []);
    const [m] = await list(bare.child._id);
    assertEquals(m.returnUrlsMissing, ["Terminate", "Over Quota", "Survey Close"]);
    // the record shows the map's own links, not the supplier's
    assertEquals(m.redirectComplete, "");
    assert(!("supplierComplete" in m));
    const one = await t.api(Maps.getSupplierMapCall, { params: { id: bare.mapId }, token });
    assertEquals(one.json.result.returnUrlsMissing, ["Terminate", "Over Quota", "Survey Close"]);
  } finally {
    await t.close();
  }
});
