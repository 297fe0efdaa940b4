/** Small real records made through the API, for tests of areas that need a client, supplier or project. */
import type { TestApp } from "./app.ts";
import { addClient } from "../../shared/api/clients.ts";
import { addSupplier } from "../../shared/api/suppliers.ts";
import { addProject } from "../../shared/api/projects.ts";
import { newId } from "../../server/db/ids.ts";

let n = 0;
const uniq = () => `${Date.now().toString(36)}${(n++).toString(36)}`;

export async function makeClient(t: TestApp, extra: Record<string, unknown> = {}) {
  return await t.ok(addClient, {
    as: "SUPERADMIN",
    body: {
      clientName: `Client ${uniq()}`,
      countryId: "US",
      clientEmail: "buyer@example.com",
      ...extra,
    },
  });
}

export async function makeSupplier(t: TestApp, extra: Record<string, unknown> = {}) {
  const code = uniq().slice(-6).toUpperCase();
  return await t.ok(addSupplier, {
    as: "SUPERADMIN",
    body: {
      supplierType: 1,
      supplierName: `Panel ${code}`,
      supplierShortCode: `S${code}`,
      supplierEmail: `panel-${code.toLowerCase()}@example.com`,
      supplierRuleCPI: "2.5|3",
      countryId: "US",
      redirectComplete: "https://panel.example/c?sid=[sid]",
      ...extra,
    },
  });
}

export async function makeParent(t: TestApp, extra: Record<string, unknown> = {}) {
  const client = extra.clientId ? { _id: extra.clientId as string } : await makeClient(t);
  const manager = await t.userWith("MANAGER");
  const parent = await t.ok(addProject, {
    as: "SUPERADMIN",
    body: {
      projectName: "Brand tracker Q4",
      clientId: client._id,
      userId: manager.id,
      averageLOI: "12",
      ir: "40",
      ...extra,
    },
  });
  // a group project always has its manager
  return parent as typeof parent & { userId: string };
}

/** A valid body for adding a child project under `parent`. */
export function childProjectBody(
  parent: { _id: string; clientId: string },
  extra: Record<string, unknown> = {},
) {
  return {
    projectName: "Brand tracker US",
    parentProjectId: parent._id,
    clientId: parent.clientId,
    countryId: "US",
    averageLOI: 12,
    ir: 40,
    sampleSize: 100,
    respondentClickQuota: 1000,
    cpi: "2.50",
    startDate: "2026-11-01",
    endDate: "2026-12-01",
    ...extra,
  };
}

export async function makeChild(
  t: TestApp,
  parent: { _id: string; clientId: string },
  extra: Record<string, unknown> = {},
) {
  return await t.ok(addProject, { as: "SUPERADMIN", body: childProjectBody(parent, extra) });
}

/**
 * A library qualification with its options in order, written straight to its tables (as a quota
 * needs them): the qualification's id and its options' ids.
 */
export async function addQualification(
  db: TestApp["deps"]["db"],
  q: { name: string; options: string[]; at?: string },
): Promise<{ id: string; options: string[] }> {
  const at = q.at ?? new Date().toISOString();
  const id = newId();
  await db.insertInto("qualifications").values({
    id,
    qualificationName: q.name,
    qualificationKey: `${q.name.toLowerCase()}-${id}`,
    qualificationIcon: "users",
    isActive: 1,
    isDeleted: 0,
    createdAt: at,
    updatedAt: at,
  }).execute();
  const options = q.options.map((text, i) => ({
    id: newId(),
    qualificationId: id,
    text,
    subText: "",
    isActive: 1,
    isDeleted: 0,
    sortOrder: i + 1,
  }));
  await db.insertInto("qualification_options").values(options).execute();
  return { id, options: options.map((o) => o.id) };
}

/**
 * A Gender quota on a project (its qualification made by addQualification): the Female and Male
 * cells of the sizes given. Answers whose text is "Female" or "Male" fall in them.
 */
export async function addGenderQuota(
  db: TestApp["deps"]["db"],
  projectId: string,
  sizes: { female: number; male: number },
): Promise<{ quotaId: string; female: string; male: string }> {
  const at = new Date().toISOString();
  const { id: qualificationId, options: [female, male] } = await addQualification(db, {
    name: "Gender",
    options: ["Female", "Male"],
    at,
  });
  const quotaId = newId();
  await db.insertInto("project_quotas").values({
    id: quotaId,
    projectId,
    qualificationId,
    quotaValue: JSON.stringify([
      { quotaOptionId: female, quotaSize: sizes.female, completes: 0 },
      { quotaOptionId: male, quotaSize: sizes.male, completes: 0 },
    ]),
    createdAt: at,
    updatedAt: at,
  }).execute();
  return { quotaId, female, male };
}
