/**
 * Issuing companies: the legal entities invoices and purchase orders come from, with their bank
 * details. Data, not code: a SUPERADMIN edits them; the migration and the seed set up the demo's
 * two. The Canadian entity applies when the client's account marker (wolfAccount) is `wcanada`.
 */
import type { Selectable } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { IssuingCompaniesTable } from "../../db/tables/accounts.ts";
import { newId } from "../../db/ids.ts";
import type { IssuingCompany } from "../../../shared/api/accounts.ts";
import type { IssuingCompanyForm } from "../../../shared/schemas/accounts.ts";
import { conflict, notFound } from "../errors.ts";
import type { Ctx, WriteCtx } from "../ctx.ts";
import { dateAt } from "../common/clock.ts";
import { diffRecord, writeChanges } from "../audit/changes.ts";
import { ISSUER_FIELDS } from "../audit/fields.ts";

export const MODULE = "Accounts";
/** The marker of the Canadian entity (part 2, 2 "Generate Invoice"). */
export const CANADA_MARKER = "wcanada";

export function issuerRecord(row: Selectable<IssuingCompaniesTable>): IssuingCompany {
  const { id, createdAt: _c, ...rest } = row;
  return { _id: id, ...rest };
}

export async function listIssuers(ctx: Pick<Ctx, "db" | "now">): Promise<IssuingCompany[]> {
  const db = ctx.db;
  await ensureIssuersOnce(ctx);
  const rows = await db.selectFrom("issuing_companies").selectAll().orderBy("accountMarker").execute();
  return rows.map(issuerRecord);
}

/** The entity for a client's account marker: its own if one is set up, else the default (""). */
export async function issuerFor(ctx: Pick<Ctx, "db" | "now">, wolfAccount: string): Promise<IssuingCompany> {
  const db = ctx.db;
  await ensureIssuersOnce(ctx);
  const marker = wolfAccount.trim().toLowerCase() === CANADA_MARKER ? CANADA_MARKER : "";
  const rows = await db.selectFrom("issuing_companies").selectAll()
    .where("accountMarker", "in", [...new Set([marker, ""])]).execute();
  const row = rows.find((r) => r.accountMarker === marker) ?? rows.find((r) => r.accountMarker === "");
  if (!row) throw conflict("No issuing company is set up: a SUPERADMIN adds one under Accounts");
  return issuerRecord(row);
}

export async function getIssuer(db: Db, id: string): Promise<IssuingCompany> {
  const row = await db.selectFrom("issuing_companies").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound("Issuing company");
  return issuerRecord(row);
}

export async function updateIssuer(
  ctx: WriteCtx,
  input: IssuingCompanyForm & { id: string },
): Promise<IssuingCompany> {
  const { db, actor } = ctx, { id, ...form } = input;
  const now = dateAt(ctx.now);
  return await db.transaction().execute(async (trx) => {
    const before = await getIssuer(trx, id);
    await trx.updateTable("issuing_companies").set({ ...form, updatedAt: now.toISOString() })
      .where("id", "=", id).execute();
    await writeChanges(trx, actor, {
      head: `Updated issuing company ${before.companyName}`,
      changes: await diffRecord(trx, ISSUER_FIELDS, before, form),
      module: MODULE,
      recordId: id,
    }, now);
    return await getIssuer(trx, id);
  });
}

/** The demo's two entities (fictional details), added when missing: the seed and fresh databases. */
export const DEMO_ISSUER_ROWS = [
  {
    accountMarker: "",
    companyName: "Samplex Research Private Limited",
    address: "4th Floor, Tower B, Cyber Park\nSector 67, Gurugram, Haryana 122102\nIndia",
    email: "accounts@samplex.example",
    phone: "+91 124 555 0100",
    taxNumber: "GSTIN 06AAACS0000A1Z5",
    taxLines: "Export of services under LUT without payment of IGST",
    serviceDescription:
      "Online survey sample services: respondent recruitment, survey routing, quality checks and completes delivered as per the purchase orders listed above.",
    bankUs:
      "Beneficiary: Samplex Research Private Limited\nBank: First Example Bank, New York, NY\nAccount: 000123456789\nABA routing: 021000000\nSWIFT: FEBKUS33\nFor further credit to: Samplex Research Pvt Ltd, A/c 50200012345678",
    bankInternational:
      "Beneficiary: Samplex Research Private Limited\nBank: Example Bank of India, Gurugram Branch\nAccount: 50200012345678\nSWIFT: EXBIINBB\nIFSC: EXBI0000123\nIntermediary: First Example Bank, New York (FEBKUS33)\nFor further credit to: A/c 50200012345678",
  },
  {
    accountMarker: CANADA_MARKER,
    companyName: "Samplex Research Canada Inc.",
    address: "200 Bay Street, Suite 1800\nToronto, ON M5J 2J2\nCanada",
    email: "accounts.ca@samplex.example",
    phone: "+1 416 555 0199",
    taxNumber: "BN 700000000 RT0001",
    taxLines: "GST/HST 0% (zero-rated export of services)",
    serviceDescription:
      "Online survey sample services: respondent recruitment, survey routing, quality checks and completes delivered as per the purchase orders listed above.",
    bankUs:
      "Beneficiary: Samplex Research Canada Inc.\nBank: First Example Bank, New York, NY\nAccount: 000987654321\nABA routing: 021000000\nSWIFT: FEBKUS33\nFor further credit to: Samplex Research Canada Inc., A/c 1234-5678901",
    bankInternational:
      "Beneficiary: Samplex Research Canada Inc.\nBank: Example Bank of Canada, Toronto Main Branch\nTransit 00012, Institution 004, Account 1234-5678901\nSWIFT: EXBCCATT\nFor further credit to: A/c 1234-5678901",
  },
];

/** Adds the demo entities whose marker has none yet (never overwrites a SUPERADMIN's edits). */
export async function ensureIssuers(ctx: Pick<Ctx, "db" | "now">): Promise<void> {
  const db = ctx.db;
  const now = dateAt(ctx.now), stamp = now.toISOString();
  for (const row of DEMO_ISSUER_ROWS) {
    await db.insertInto("issuing_companies")
      .values({ id: newId(now.getTime()), ...row, createdAt: stamp, updatedAt: stamp })
      .onConflict((oc) => oc.column("accountMarker").doNothing()).execute();
  }
}

/** A database with no issuing company at all gets the demo's two (a fresh install works at once). */
async function ensureIssuersOnce(ctx: Pick<Ctx, "db" | "now">) {
  const any = await ctx.db.selectFrom("issuing_companies").select("id").limit(1).executeTakeFirst();
  if (!any) await ensureIssuers(ctx);
}
