/** Valid master-data payloads and shortcuts to create them through the API. */
import type { ApiInput, TestApp } from "./app.ts";
import type { AnyContract, BodyIn, ResultOf } from "../../shared/api/contract.ts";

let seq = 0;
const next = () => ++seq;

export function clientBody(extra: Record<string, unknown> = {}) {
  const n = next();
  return {
    clientName: `Client Research ${n}`,
    countryId: "US",
    clientEmail: `buyer${n}@client.example`,
    city: "Boston",
    netDays: 30,
    ...extra,
  };
}

export function supplierBody(extra: Record<string, unknown> = {}) {
  const n = next();
  return {
    supplierType: 1,
    supplierName: `Panel Supplier ${n}`,
    supplierShortCode: `PS${n}`,
    supplierEmail: `panel${n}@supplier.example`,
    countryId: "GB",
    supplierRuleCPI: "2.5|3.4|4|6",
    redirectComplete: `https://panel.example/complete?sid=[sid]`,
    ...extra,
  };
}

export function questionBody(extra: Record<string, unknown> = {}) {
  return {
    questionTitle: { en: `What is your age? (${next()})` },
    questionType: "RADIO",
    questionOption: [{ title: "18-34" }, { title: "35-54" }, { title: "55+" }],
    ...extra,
  };
}

export function qualificationBody(extra: Record<string, unknown> = {}) {
  const n = next();
  return {
    qualificationName: `Household Size ${n}`,
    qualificationIcon: "home",
    qualificationOptions: [{ text: "1 person" }, { text: "2 people", subText: "incl. you" }, { text: "3+" }],
    ...extra,
  };
}

/**
 * Makes a record through its add call and returns it, failing loudly otherwise:
 * `created(t, token, C.addClient, clientBody())`.
 */
export async function created<C extends AnyContract>(
  t: TestApp,
  token: string,
  contract: C,
  body: BodyIn<C>,
): Promise<ResultOf<C>>;
export async function created(t: TestApp, token: string, call: AnyContract, body: unknown) {
  return await t.ok(call, { token, body } as ApiInput<AnyContract>);
}

/** Audit rows of one record, oldest first. */
export async function auditOf(t: TestApp, recordId: string) {
  return await t.deps.db.selectFrom("system_logs").selectAll().where("recordId", "=", recordId)
    .orderBy("createdAt").orderBy("id").execute();
}

/** Parses our CSV (quoted cells, CRLF, BOM) into rows of cells. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], cell = "", quoted = false;
  const s = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (quoted) {
      if (ch === '"' && s[i + 1] === '"') (cell += '"', i++);
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") (row.push(cell), cell = "");
    else if (ch === "\r") continue;
    else if (ch === "\n") (row.push(cell), rows.push(row), row = [], cell = "");
    else cell += ch;
  }
  if (cell || row.length) (row.push(cell), rows.push(row));
  return rows;
}
