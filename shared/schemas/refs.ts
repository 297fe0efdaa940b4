/**
 * Record references in schemas: an id field declares the kind of record it names (`refersTo`), and
 * the API registrar checks every such id of a body or query against its table, in the same place
 * it checks the ids of the path (server/http/api.ts). A handler never sees an id of no record.
 *
 * Parsing stays synchronous and the schemas stay the web forms' schemas: while the registrar parses
 * (`collectRefs`), each declared id that passed its own checks is noted; the registrar then looks
 * them all up at once and, for the ones in no row, parses again with those ids marked missing, so
 * the refusal names the first such field's kind: 404 "<Kind> not found". Outside
 * the registrar (the web app, the CLI's own checks) the declaration does nothing.
 */
import * as v from "valibot";

/** The records a body or query id may name (the registrar maps each to its table). */
export const RECORD_KINDS = [
  "Project",
  "Client",
  "Supplier",
  "User",
  "Supplier map",
  "Supplier rule",
  "Category",
  "Qualification",
  "Invoice",
  "Purchase order",
  "Issuing company",
  "Scheduled job",
  "E-mail",
] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

export type RecordRef = { kind: RecordKind; id: string };

const refKey = (r: RecordRef) => `${r.kind}\u0000${r.id}`;

type Scope = { seen: RecordRef[]; missing: Set<string> | null };
let scope: Scope | null = null;

/** The validation action of a declared id: notes it, or (second pass) refuses it if it is missing. */
export function refersTo(kind: RecordKind) {
  const action = v.rawCheck<string>(({ dataset, addIssue }) => {
    if (!scope || dataset.issues || typeof dataset.value !== "string" || dataset.value === "") return;
    const ref = { kind, id: dataset.value };
    if (!scope.missing) scope.seen.push(ref);
    else if (scope.missing.has(refKey(ref))) addIssue({ message: `${kind} not found` });
  });
  // the declaration is readable from the schema (the contract sweep finds the id fields by it)
  return Object.assign(action, { refersTo: kind });
}

/** Runs a synchronous parse noting the declared ids it passes. */
export function collectRefs<T>(parse: () => T): { value: T; refs: RecordRef[] } {
  const outer = scope;
  scope = { seen: [], missing: null };
  try {
    const value = parse();
    return { value, refs: scope.seen };
  } finally {
    scope = outer;
  }
}

/** Runs the parse again with the ids found missing refused at their fields (it throws there). */
export function refuseMissing<T>(parse: () => T, missing: RecordRef[]): T {
  const outer = scope;
  scope = { seen: [], missing: new Set(missing.map(refKey)) };
  try {
    return parse();
  } finally {
    scope = outer;
  }
}
