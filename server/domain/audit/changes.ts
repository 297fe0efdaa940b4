/**
 * What an update changed, in words a manager reads: one diff over a record's row before and after
 * the save, driven by a field declaration per record kind (server/domain/audit/fields.ts). Only the
 * fields that changed are named, each with its old and new value ("Speed time: 120 -> 90 s",
 * "Speeder: off -> on"); secrets are masked, long text reads "changed" rather than both bodies, and
 * ids of related records read as their names. A save that changes nothing yields no changes, and
 * the update functions then write no log row.
 */
import type { Db } from "../../db/connection.ts";
import { isHiddenField, isSecretField, maskSecret } from "../../../shared/secrets.ts";
import { type Actor, clip, writeLog } from "./log.ts";
import { changesActivity, type LogChange } from "../../../shared/audit.ts";

/** How a field's value is compared and shown. */
export type FieldKind =
  /** Short text, shown whole (cut at VALUE_MAX); longer or multi-line text reads "changed". */
  | "text"
  /** Rich text, JSON, mappings: never shown, only "changed". */
  | "long"
  /** 0/1 or true/false: "on"/"off". */
  | "bool"
  /** A number, with the field's unit. */
  | "number"
  /** A yyyy-mm-dd date (or ISO time), shown dd/MM/yyyy. */
  | "date"
  /** A key or password: masked (last 4 characters at most), or just "changed". */
  | "secret"
  /** A JSON list (or an array) of codes or ids: the entries added and removed. */
  | "list";

export type FieldDecl = {
  label: string;
  kind?: FieldKind;
  /** Appended to a number: "s" reads "90 s", "%" reads "90%". */
  unit?: string;
  /** Names of coded values (a status code, a type): shown instead of the code. */
  options?: Readonly<Record<string | number, string>>;
  /** The name of a related record (or of a list entry) by its id; the id itself when it has none. */
  name?: (db: Db, id: string) => Promise<string | undefined>;
};

/** The fields of one record kind that the log names, by column (or patch key). */
export type FieldDecls = Readonly<Record<string, FieldDecl>>;

/** One changed field: the column, its label and the old and new value as shown. */
export type Change = LogChange & { field: string };

/** The longest value the log shows whole; longer text reads "changed". */
export const VALUE_MAX = 80;
/** The most list entries named as added or removed before the rest are counted. */
const LIST_NAMED = 5;
const EMPTY = "empty";

function parseList(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v !== "string" || v === "") return [];
  try {
    const parsed = JSON.parse(v);
    return Array.isArray(parsed) ? parsed.map(String) : [v];
  } catch {
    return [v];
  }
}

/** The value in a form that compares equal however it is stored (0/1 vs boolean, "5" vs 5, null vs ""). */
function normal(kind: FieldKind, v: unknown): string | number | boolean | null {
  switch (kind) {
    case "bool":
      return v === true || v === 1 || v === "1" || v === "true";
    case "number": {
      if (v === null || v === undefined || v === "") return null;
      const n = Number(v);
      return Number.isFinite(n) ? n : String(v);
    }
    case "list":
      return JSON.stringify(parseList(v));
    case "date":
      return v == null ? "" : String(v).slice(0, 10);
    default:
      return v == null ? "" : String(v);
  }
}

function shownDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : iso;
}

async function named(db: Db, decl: FieldDecl, value: string): Promise<string> {
  if (decl.options && value in decl.options) return decl.options[value];
  if (decl.name && value !== "") return (await decl.name(db, value)) ?? value;
  return value;
}

/** One side of a change as shown (never for "long" and "secret", which have their own words). */
async function shown(db: Db, decl: FieldDecl, kind: FieldKind, v: unknown): Promise<string> {
  const n = normal(kind, v);
  if (kind === "bool") return n ? "on" : "off";
  if (n === null || n === "") return EMPTY;
  if (kind === "number" && typeof n === "number") {
    const text = decl.options?.[n] ?? String(n);
    if (!decl.unit) return text;
    return decl.unit === "%" ? `${text}%` : `${text} ${decl.unit}`;
  }
  if (kind === "date") return shownDate(String(n));
  return clip(await named(db, decl, String(n)), VALUE_MAX);
}

async function listChange(db: Db, decl: FieldDecl, before: unknown, after: unknown) {
  const was = parseList(before), now = parseList(after);
  const added = now.filter((x) => !was.includes(x)), removed = was.filter((x) => !now.includes(x));
  const say = async (verb: string, xs: string[]) => {
    const names = await Promise.all(xs.slice(0, LIST_NAMED).map((x) => named(db, decl, x)));
    const more = xs.length > LIST_NAMED ? ` and ${xs.length - LIST_NAMED} more` : "";
    return `${verb} ${names.map((s) => clip(s, VALUE_MAX)).join(", ")}${more}`;
  };
  const parts = [
    ...(added.length ? [await say("added", added)] : []),
    ...(removed.length ? [await say("removed", removed)] : []),
  ];
  // the same entries in another order
  return parts.length ? parts.join(", ") : "reordered";
}

/**
 * The declared fields whose value differs between `before` and `after`, in declaration order.
 * A field absent from `after` (undefined) was not part of the save and is skipped. A field named
 * like a secret is masked whatever its declared kind.
 */
export async function diffRecord(
  db: Db,
  decls: FieldDecls,
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): Promise<Change[]> {
  const out: Change[] = [];
  for (const [field, decl] of Object.entries(decls)) {
    if (after[field] === undefined) continue;
    const kind: FieldKind = isSecretField(field) || isHiddenField(field) ? "secret" : decl.kind ?? "text";
    const a = normal(kind, before[field]), b = normal(kind, after[field]);
    if (a === b) continue;
    const change = (from: string, to = "") => out.push({ field, label: decl.label, from, to });
    if (kind === "list") {
      change(await listChange(db, decl, before[field], after[field]));
      continue;
    }
    if (kind === "secret") {
      const from = isHiddenField(field) ? "" : maskSecret(String(a)),
        to = isHiddenField(field) ? "" : maskSecret(String(b));
      if (from && to && from !== to) change(from, to);
      else change(!a ? "set" : !b ? "cleared" : "changed");
      continue;
    }
    const from = await shown(db, decl, kind, before[field]), to = await shown(db, decl, kind, after[field]);
    const tooLong = (s: unknown) => typeof s === "string" && (s.length > VALUE_MAX || /[\r\n]/.test(s));
    if (kind === "long" || (kind === "text" && (tooLong(a) || tooLong(b)))) {
      change(!a ? "set" : !b ? "cleared" : "changed");
      continue;
    }
    change(from, to);
  }
  return out;
}

/** Writes an update's log row: `head` and each change (text and data); no row when nothing changed. */
export async function writeChanges(
  db: Db,
  actor: Actor,
  entry: { head: string; changes: readonly Change[]; module: string; recordId?: string | null },
  at: Date,
): Promise<void> {
  if (!entry.changes.length) return;
  await writeLog(db, actor, {
    activity: changesActivity(entry.head, entry.changes),
    changes: entry.changes,
    module: entry.module,
    recordId: entry.recordId,
  }, at);
}
