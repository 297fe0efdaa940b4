/** The audit diff (server/domain/audit/changes.ts): what counts as a change and how values read. */
import { assert, assertEquals } from "../helpers/assert.ts";
import type { Db } from "../../server/db/connection.ts";
import { diffRecord, type FieldDecls } from "../../server/domain/audit/changes.ts";
import { PROJECT_FIELDS, SUPPLIER_MAP_FIELDS } from "../../server/domain/audit/fields.ts";
import { ProjectPatch, SupplierMapForm } from "../../shared/schemas/project.ts";
import { activityHead, changesActivity, changeText, parseChanges } from "../../shared/audit.ts";

/** No declaration below names related records, so the diff never reads the database. */
const db = {} as Db;
const texts = async (decls: FieldDecls, before: Record<string, unknown>, after: Record<string, unknown>) =>
  (await diffRecord(db, decls, before, after)).map(changeText);

Deno.test("audit diff: stored 0/1, numbers as text and null vs '' are not changes; undefined was not saved", async () => {
  const decls: FieldDecls = {
    isSpeeder: { label: "Speeder", kind: "bool" },
    speedTime: { label: "Speed time", kind: "number", unit: "s" },
    notes: { label: "Notes" },
    wid: { label: "WID" },
  };
  assertEquals(
    await texts(decls, { isSpeeder: 1, speedTime: 120, notes: null, wid: "W1" }, {
      isSpeeder: true,
      speedTime: "120",
      notes: "",
    }),
    [],
  );
  assertEquals(await texts(decls, { isSpeeder: 0, speedTime: 120 }, { isSpeeder: true, speedTime: "90" }), [
    "Speeder: off -> on",
    "Speed time: 120 s -> 90 s",
  ]);
});

Deno.test("audit diff: dates read dd/MM/yyyy, codes by their names, empty as 'empty', percent and units", async () => {
  const decls: FieldDecls = {
    endDate: { label: "End date", kind: "date" },
    projectStatus: { label: "Status", kind: "number", options: { 3: "Live", 6: "Paused" } },
    ir: { label: "IR", kind: "number", unit: "%" },
    poNumber: { label: "PO Number" },
  };
  assertEquals(
    await texts(decls, { endDate: "2026-11-30", projectStatus: 3, ir: 40, poNumber: "" }, {
      endDate: "2026-12-31",
      projectStatus: 6,
      ir: 35,
      poNumber: "PO-77",
    }),
    [
      "End date: 30/11/2026 -> 31/12/2026",
      "Status: Live -> Paused",
      "IR: 40% -> 35%",
      "PO Number: empty -> PO-77",
    ],
  );
});

Deno.test("audit diff: long text reads set/changed/cleared, never its body", async () => {
  const decls: FieldDecls = {
    projectSpecs: { label: "Project specs", kind: "long" },
    name: { label: "Name" },
  };
  const body = "<p>Soft launch first</p>";
  assertEquals(await texts(decls, { projectSpecs: "" }, { projectSpecs: body }), ["Project specs: set"]);
  assertEquals(await texts(decls, { projectSpecs: body }, { projectSpecs: `${body}!` }), [
    "Project specs: changed",
  ]);
  assertEquals(await texts(decls, { projectSpecs: body }, { projectSpecs: "" }), ["Project specs: cleared"]);
  // short text shown whole; text too long to read in a log line (or on several lines) as "changed"
  assertEquals(await texts(decls, { name: "A" }, { name: "x".repeat(81) }), ["Name: changed"]);
  assertEquals(await texts(decls, { name: "A" }, { name: "line 1\nline 2" }), ["Name: changed"]);
});

Deno.test("audit diff: a field named like a secret is masked whatever its declaration says", async () => {
  const decls: FieldDecls = { signingKey: { label: "Signing key" }, password: { label: "Password" } };
  const out = await texts(decls, { signingKey: "sk-aaaaaaaaaaaa-1111", password: "old-hash" }, {
    signingKey: "sk-bbbbbbbbbbbb-2222",
    password: "new-hash",
  });
  assertEquals(out, ["Signing key: ••••••••1111 -> ••••••••2222", "Password: changed"]);
  assert(!out.join().includes("sk-"), "no key whole");
  // short secrets show nothing of themselves
  assertEquals(await texts(decls, { signingKey: "short-1" }, { signingKey: "short-2" }), [
    "Signing key: changed",
  ]);
});

Deno.test("audit diff: lists name what was added and removed, at most five, the rest counted", async () => {
  const decls: FieldDecls = { zipCodes: { label: "Zip codes", kind: "list" } };
  const many = ["10001", "10002", "10003", "10004", "10005", "10006", "10007"];
  assertEquals(await texts(decls, { zipCodes: '["90210"]' }, { zipCodes: JSON.stringify(many) }), [
    "Zip codes: added 10001, 10002, 10003, 10004, 10005 and 2 more, removed 90210",
  ]);
  assertEquals(await texts(decls, { zipCodes: '["1","2"]' }, { zipCodes: ["2", "1"] }), [
    "Zip codes: reordered",
  ]);
  assertEquals(await texts(decls, { zipCodes: '["1","2"]' }, { zipCodes: ["1", "2"] }), []);
});

Deno.test("audit fields: every field the project update and the supplier map form save is declared", () => {
  const notColumns = new Set([
    "projectStatus", // logged by the status change itself
    "multiLinkUrls", // logged as 'Uploaded N survey links'
    "isDeleted",
    "sendEmail",
    "parentProjectId", // cannot change
    "regionId",
    "cityId",
    "zipCodeId", // stored as regionIds, cityIds, zipCodes
  ]);
  const missing = Object.keys(ProjectPatch.entries).filter((k) =>
    !notColumns.has(k) && !(k in PROJECT_FIELDS)
  );
  assertEquals(missing, []);
  for (const k of ["regionIds", "cityIds", "zipCodes"]) assert(k in PROJECT_FIELDS, k);
  const mapMissing = Object.keys(SupplierMapForm.entries).filter((k) =>
    k !== "projectId" && k !== "supplierId" && !(k in SUPPLIER_MAP_FIELDS)
  );
  assertEquals(mapMissing, []);
});

Deno.test("audit activity: the head apart from its changes; stored changes read back safely", () => {
  const changes = [{ label: "Project name", from: "A: b", to: "C" }, {
    label: "Notes",
    from: "changed",
    to: "",
  }];
  const activity = changesActivity("Updated P10001", changes);
  assertEquals(activity, "Updated P10001: Project name: A: b -> C; Notes: changed");
  assertEquals(activityHead(activity, changes), "Updated P10001");
  assertEquals(activityHead("Signed in", []), "Signed in");
  assertEquals(parseChanges(JSON.stringify(changes)), changes);
  assertEquals(parseChanges("not json"), []);
  assertEquals(parseChanges('[{"nolabel":1}]'), []);
  assertEquals(parseChanges(""), []);
});
