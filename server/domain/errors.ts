/**
 * Business errors: what the domain says went wrong, in its own words. The HTTP layer maps each kind
 * to a status (`server/http/errors.ts`), the CLI to its one-line `error: ...`; the domain knows
 * neither.
 */
import { MSG } from "../../shared/messages.ts";

export type FieldError = { path: string; message: string };

export type DomainErrorKind =
  /** The input breaks a rule (400). */
  | "invalid"
  /** No valid session, or wrong credentials (401). */
  | "unauthenticated"
  /** The caller may not do this to this record (403). */
  | "forbidden"
  /** The record does not exist, or is not the caller's to see (404). */
  | "notFound"
  /** The change clashes with the current state: a duplicate, an illegal transition (409). */
  | "conflict"
  /** Too many attempts; try later (429). */
  | "tooManyAttempts"
  /** A service we depend on (an external sample provider) failed or is not reachable (502). */
  | "upstream";

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const invalid = (message: string, errors?: FieldError[]) =>
  new DomainError("invalid", message, errors);
export const unauthenticated = (message: string) => new DomainError("unauthenticated", message);
export const forbidden = (message: string, errors?: FieldError[]) =>
  new DomainError("forbidden", message, errors);
export const notFound = (what = "Record") => new DomainError("notFound", `${what} not found`);
export const conflict = (message: string, errors?: FieldError[]) =>
  new DomainError("conflict", message, errors);
export const tooManyAttempts = (message: string) => new DomainError("tooManyAttempts", message);
export const upstream = (message: string) => new DomainError("upstream", message);

/** Whether an error is the domain's "not found" (the CLI words some of these itself). */
export const isNotFound = (e: unknown): e is DomainError => e instanceof DomainError && e.kind === "notFound";

/**
 * The unique indexes whose clash has a message of its own (`table.column` as SQLite names it). The
 * domains check first for a clear message; when two saves race past that check, the index refuses the
 * second and it gets the same conflict as the check would have given.
 */
const UNIQUE_CONFLICTS: Record<string, FieldError> = {
  "clients.clientCode": { path: "clientCode", message: MSG.clientCodeTaken },
  "suppliers.supplierShortCode": { path: "supplierShortCode", message: MSG.shortcodeTaken },
  "qualifications.qualificationKey": { path: "qualificationKey", message: MSG.qualificationKeyTaken },
  "users.email": { path: "email", message: MSG.emailTaken },
};

/** A database constraint error as the conflict it stands for (the field's own message where known), else null. */
export function constraintConflict(err: unknown): DomainError | null {
  const code = String((err as { code?: unknown })?.code ?? "");
  const msg = err instanceof Error ? err.message : "";
  if (!/SQLITE_CONSTRAINT/.test(code) && !/UNIQUE constraint failed/.test(msg)) return null;
  const column = /UNIQUE constraint failed: ([\w.]+)/.exec(msg)?.[1];
  const known = column ? UNIQUE_CONFLICTS[column] : undefined;
  return known ? conflict(known.message, [known]) : conflict(MSG.recordExists);
}
