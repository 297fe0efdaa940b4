/**
 * The audit log says what an update changed (#25 item 2): only the fields that changed, each with
 * its old and new value in words a manager reads; secrets masked; long text as "changed"; related
 * records by name; a save that changes nothing writes no row; counts in the right number.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { type ApiInput, type TestApp, testApp } from "../helpers/app.ts";
import type { AnyContract, BodyIn } from "../../shared/api/contract.ts";
import { makeChild, makeParent, makeSupplier } from "../helpers/fixtures.ts";
import { auditOf } from "../helpers/master.ts";
import { SECURITY_FLAGS } from "../../shared/schemas/project.ts";
import * as Acc from "../../shared/api/accounts.ts";
import * as Lib from "../../shared/api/library.ts";
import * as Parts from "../../shared/api/project-parts.ts";
import * as Proj from "../../shared/api/projects.ts";
import * as SMap from "../../shared/api/supplier-maps.ts";
import * as Sup from "../../shared/api/suppliers.ts";
import * as Supp from "../../shared/api/support.ts";
import * as SysLog from "../../shared/api/system-log.ts";
import * as Users from "../../shared/api/users.ts";

const activities = async (t: TestApp, id: string) => (await auditOf(t, id)).map((l) => l.activity);

/** What each tab of the project page sends: the whole form, changed or not. */
/** The project form as the app sends it, rebuilt from a stored project (whose fields are untyped here). */
type ProjectForm = BodyIn<typeof Proj.updateProjectCall>;

function groupForm(p: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    projectName: p.projectName,
    projectDescription: p.projectDescription ?? "",
    notes: p.notes ?? "",
    clientId: p.clientId,
    userId: p.userId,
    isDynamicThanksUrl: p.isDynamicThanksUrl,
    projectStatus: p.projectStatus,
    poNumber: p.poNumber ?? "",
    averageLOI: String(p.averageLOI),
    ir: String(p.ir),
    clientEmail: p.clientEmail ?? "",
    projectSpecs: p.projectSpecs ?? "",
    ...extra,
  } as ProjectForm;
}
function securityForm(p: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    ...Object.fromEntries(SECURITY_FLAGS.map((f) => [f, !!p[f]])),
    maxIPCount: String(p.maxIPCount ?? 1),
    speedTime: String(p.speedTime ?? 0),
    ...extra,
  } as ProjectForm;
}

Deno.test("audit: renaming a project from its form logs the name's old and new value and nothing else", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const p = await makeParent(t, { projectName: "Brand tracker Q4" });
    const before = (await activities(t, p._id)).length;
    const r = await t.api(Proj.updateProjectCall, {
      params: { id: p._id },
      token,
      body: groupForm(p, { projectName: "Brand tracker 2027" }),
    });
    assertEquals(r.status, 200, r.text);
    const log = (await activities(t, p._id)).slice(before);
    assertEquals(log, [`Updated ${p.projectCode}: Project name: Brand tracker Q4 -> Brand tracker 2027`]);
    // the changes as data too: the project's Logs dialog and Support > System Logs list them
    const change = { label: "Project name", from: "Brand tracker Q4", to: "Brand tracker 2027" };
    const timeline = await t.api(SysLog.systemLogCall, { token, body: { filter: p._id } });
    assertEquals(timeline.json.result[0].changes, [change]);
    const page = await t.api(SysLog.systemLogCall, { token, body: { search: "Brand tracker 2027" } });
    assertEquals(page.status, 200, page.text);
    const row = page.json.result.data.find((r: { activity: string }) => r.activity === log[0]);
    assertEquals(row?.changes, [change]);
    assertEquals(
      (await t.api(SysLog.systemLogCall, { token, body: { filter: p._id } })).json.result.at(-1)
        .changes,
      [],
      "entries other than updates have no changes",
    );

    // a related record by its name; long text as "set"/"changed", never its body
    const other = await t.api(Users.addUser, {
      token,
      body: {
        firstName: "Dana",
        lastName: "Kowalski",
        email: "dana.k@samplex.test",
        role: "MANAGER",
        password: "first-pass-1",
        isActive: true,
      },
    });
    assertEquals(other.status, 200, other.text);
    const was = await t.deps.db.selectFrom("users").select(["firstName", "lastName"]).where(
      "id",
      "=",
      p.userId,
    )
      .executeTakeFirstOrThrow();
    const specs = "<p>Quota: 40% women aged 18-34, soft launch first; call the client before fielding.</p>";
    const moved = await t.api(Proj.updateProjectCall, {
      params: { id: p._id },
      token,
      body: groupForm(
        { ...p, projectName: "Brand tracker 2027" },
        { userId: other.json.result._id, projectSpecs: specs },
      ),
    });
    assertEquals(moved.status, 200, moved.text);
    const last = (await activities(t, p._id)).at(-1)!;
    assertEquals(
      last,
      `Updated ${p.projectCode}: Project manager: ${was.firstName} ${was.lastName} -> Dana Kowalski; ` +
        "Project specs: set",
    );
  } finally {
    await t.close();
  }
});

Deno.test("audit: saving securities logs only the flag and the number that changed, with their values", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const child = await makeChild(t, await makeParent(t));
    const first = await t.api(Proj.updateProjectCall, {
      params: { id: child._id },
      token,
      body: securityForm(child, { speedTime: "120" }),
    });
    assertEquals(first.status, 200, first.text);
    const p = first.json.result;
    assertEquals(
      (await activities(t, child._id)).at(-1),
      `Updated ${child.projectCode}: Speed time: ${child.speedTime ?? 0} s -> 120 s`,
    );
    const wasSpeeder = !!p.isSpeeder;
    const before = (await activities(t, child._id)).length;
    const r = await t.api(Proj.updateProjectCall, {
      params: { id: child._id },
      token,
      body: securityForm(p, { isSpeeder: !wasSpeeder, speedTime: "90" }),
    });
    assertEquals(r.status, 200, r.text);
    const onOff = (b: boolean) => (b ? "on" : "off");
    assertEquals((await activities(t, child._id)).slice(before), [
      `Updated ${child.projectCode}: Speeder: ${onOff(wasSpeeder)} -> ${
        onOff(!wasSpeeder)
      }; Speed time: 120 s -> 90 s`,
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("audit: a save that changes nothing writes no log row (project form, securities, supplier, supplier map)", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const child = await makeChild(t, parent);
    const supplier = await makeSupplier(t);
    const mapBody = {
      projectId: child._id,
      supplierId: supplier._id,
      supplierCPI: "1.5",
      supplierQuota: "50",
    };
    const added = await t.api(SMap.saveSupplierMapCall, { token, body: mapBody });
    assertEquals(added.status, 200, added.text);
    const rows = async () => (await t.deps.db.selectFrom("system_logs").select("id").execute()).length;
    const n = await rows();

    const saved = async <K extends AnyContract>(call: K, input: ApiInput<K>) => {
      const r = await t.api(call, { ...input, token });
      assertEquals(r.status, 200, `${call.key}: ${r.text}`);
    };
    await saved(Proj.updateProjectCall, { params: { id: parent._id }, body: groupForm(parent) });
    await saved(Proj.updateProjectCall, { params: { id: child._id }, body: securityForm(child) });
    await saved(SMap.saveSupplierMapCall, { body: mapBody });
    await saved(Sup.updateSupplierCall, {
      params: { id: supplier._id },
      body: {
        supplierType: 1,
        supplierName: supplier.supplierName,
        supplierShortCode: supplier.supplierShortCode,
        supplierEmail: supplier.supplierEmail,
        supplierRuleCPI: supplier.supplierRuleCPI,
        countryId: "US",
        redirectComplete: supplier.redirectComplete,
      },
    });
    assertEquals(await rows(), n, "no change, no log row");

    // a real change to the map still logs, with its values; a switch reads on/off
    await t.api(SMap.saveSupplierMapCall, { token, body: { ...mapBody, supplierQuota: "75" } });
    await t.api(SMap.updateSupplierMapCall, {
      params: { id: added.json.result._id },
      token,
      body: { allowTraffic: false },
    });
    assertEquals((await activities(t, child._id)).slice(-2), [
      `Updated supplier ${supplier.supplierName} on ${child.projectCode}: Quota: 50 -> 75`,
      `Updated supplier ${supplier.supplierName} on ${child.projectCode}: Allow traffic: on -> off`,
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("audit: a changed secret is logged masked, never whole", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const s = await makeSupplier(t);
    const body = (hashKey: string) => ({
      supplierType: 1,
      supplierName: s.supplierName,
      supplierShortCode: s.supplierShortCode,
      supplierEmail: s.supplierEmail,
      supplierRuleCPI: s.supplierRuleCPI,
      countryId: "US",
      redirectComplete: s.redirectComplete,
      hashKey,
    });
    // a supplier gets a random hash key when created (its callbacks are signed with it)
    const generated = (await t.deps.db.selectFrom("suppliers").select("hashKey").where("id", "=", s._id)
      .executeTakeFirstOrThrow()).hashKey;
    for (const key of ["hk-first-secret-1111", "hk-second-secret-2222"]) {
      const r = await t.api(Sup.updateSupplierCall, { params: { id: s._id }, token, body: body(key) });
      assertEquals(r.status, 200, r.text);
    }
    const log = (await activities(t, s._id)).slice(-2);
    const head = `Updated supplier ${s.supplierName} (${s.supplierShortCode})`;
    assertEquals(log, [
      `${head}: Hash key: ••••••••${generated.slice(-4)} -> ••••••••1111`,
      `${head}: Hash key: ••••••••1111 -> ••••••••2222`,
    ]);
    const all = (await t.deps.db.selectFrom("system_logs").select("activity").execute()).map((l) =>
      l.activity
    );
    assert(!all.some((a) => a.includes("hk-first") || a.includes("hk-second")), "no key is logged whole");
  } finally {
    await t.close();
  }
});

Deno.test("audit: choosing quota options logs the options by name, in the right number ('Chose 1 option')", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const child = await makeChild(t, await makeParent(t));
    const qual = (await t.api(Lib.addQualification, {
      token,
      body: {
        qualificationName: "Gender",
        qualificationIcon: "user",
        qualificationOptions: [{ text: "Male" }, { text: "Female" }],
      },
    })).json.result;
    const [male, female] = qual.qualificationOptions.map((o: { _id: string }) => o._id);
    const addQuota = await t.api(Parts.addQuotaCall, {
      params: { projectId: child._id },
      token,
      body: { quotaId: qual._id },
    });
    assertEquals(addQuota.status, 200, addQuota.text);
    const quota = addQuota.json.result[0];
    const choose = (ids: string[]) =>
      t.api(Parts.updateQuotaCall, {
        params: { quotaId: quota._id, projectId: child._id },
        token,
        body: { quotaOptionId: ids },
      });
    assertEquals((await choose([male])).status, 200);
    assertEquals((await choose([male, female])).status, 200);
    assertEquals((await choose([male, female])).status, 200, "the same choice again");
    assertEquals((await activities(t, child._id)).filter((a) => a.startsWith("Chose")), [
      `Chose 1 option for quota Gender on ${child.projectCode}: Options: added Male`,
      `Chose 2 options for quota Gender on ${child.projectCode}: Options: added Female`,
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("audit: a scheduled job's edit names the project by its code and the interval with its unit", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const parent = await makeParent(t);
    const child = await makeChild(t, parent);
    const add = await t.api(Supp.addJobCall, {
      token,
      body: { projectCode: child.projectCode, interval: 5, comment: "", isSoft: false, isActive: true },
    });
    assertEquals(add.status, 200, add.text);
    const id = add.json.result._id;
    const edit = (body: Record<string, unknown>) =>
      t.api(Supp.updateJobCall, {
        params: { id },
        token,
        body: {
          projectCode: child.projectCode,
          interval: 5,
          comment: "",
          isSoft: false,
          isActive: true,
          ...body,
        },
      });
    assertEquals((await edit({ projectCode: parent.projectCode, interval: 10 })).status, 200);
    const before = (await activities(t, id)).length;
    assertEquals((await edit({ projectCode: parent.projectCode, interval: 10 })).status, 200);
    assertEquals((await activities(t, id)).length, before, "the same form again: no row");
    const log = (await activities(t, id)).at(-1)!;
    assert(
      log.endsWith(
        `: Project Code: ${child.projectCode} -> ${parent.projectCode}; Interval: 5 min -> 10 min`,
      ),
      log,
    );
  } finally {
    await t.close();
  }
});

Deno.test("audit: an issuing company's edit names the changed fields; bank details read 'changed'", async () => {
  const t = await testApp();
  try {
    const su = await t.tokenFor("SUPERADMIN");
    const companies = await t.api(Acc.issuingCompaniesCall, { token: su });
    const c = companies.json.result[0];
    const { _id, accountMarker: _m, updatedAt: _u, ...form } = c;
    const bankUs = "Beneficiary: Maple Ltd\nAccount 4242\nFor further credit to: A/c 42";
    const save = (body: Record<string, unknown>) =>
      t.api(Acc.updateIssuingCompanyCall, { params: { id: _id }, token: su, body: { ...form, ...body } });
    assertEquals((await save({ phone: "+1 416 555 0100", bankUs })).status, 200);
    assertEquals((await save({ phone: "+1 416 555 0100", bankUs })).status, 200, "the same again");
    const log = await activities(t, _id);
    assertEquals(log.filter((a) => a.startsWith("Updated issuing company")), [
      `Updated issuing company ${c.companyName}: Phone: ${c.phone || "empty"} -> +1 416 555 0100; ` +
      "US bank details: changed",
    ]);
    assert(!log.join().includes("Account 4242"), "bank details are not logged");
  } finally {
    await t.close();
  }
});
