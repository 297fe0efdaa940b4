/** Small real records made through the API, for tests of areas that need a client, supplier or project. */
import type { TestApp } from "./app.ts";

let n = 0;
const uniq = () => `${Date.now().toString(36)}${(n++).toString(36)}`;

async function must(t: TestApp, method: string, path: string, token: string, body: unknown) {
  const r = await t.call(method, path, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${path} gave ${r.status}: ${r.text}`);
  return r.json.result;
}

export async function makeClient(t: TestApp, extra: Record<string, unknown> = {}) {
  const token = await t.tokenFor("SUPERADMIN");
  return await must(t, "POST", "/admin/client/add", token, {
    clientName: `Client ${uniq()}`,
    countryId: "US",
    clientEmail: "buyer@example.com",
    ...extra,
  });
}

export async function makeSupplier(t: TestApp, extra: Record<string, unknown> = {}) {
  const token = await t.tokenFor("SUPERADMIN");
  const code = uniq().slice(-6).toUpperCase();
  return await must(t, "POST", "/admin/supplier/add", token, {
    supplierType: 1,
    supplierName: `Panel ${code}`,
    supplierShortCode: `S${code}`,
    supplierEmail: `panel-${code.toLowerCase()}@example.com`,
    supplierRuleCPI: "2.5|3",
    countryId: "US",
    redirectComplete: "https://panel.example/c?sid=[sid]",
    ...extra,
  });
}

export async function makeParent(t: TestApp, extra: Record<string, unknown> = {}) {
  const token = await t.tokenFor("SUPERADMIN");
  const client = extra.clientId ? { _id: extra.clientId } : await makeClient(t);
  const manager = await t.userWith("MANAGER");
  return await must(t, "POST", "/admin/project/add", token, {
    projectName: "Brand tracker Q4",
    clientId: client._id,
    userId: manager.id,
    averageLOI: "12",
    ir: "40",
    ...extra,
  });
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
  const token = await t.tokenFor("SUPERADMIN");
  return await must(t, "POST", "/admin/project/add", token, childProjectBody(parent, extra));
}
