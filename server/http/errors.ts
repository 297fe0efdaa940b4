/** Errors that become 4xx answers: `{ message, errors? }` (design.md section 4). */
import { MSG } from "../../shared/messages.ts";

export type FieldError = { path: string; message: string };

export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 502 | 503,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: FieldError[]) => new HttpError(400, message, errors);
export const unauthorized = (message: string) => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (what = "Record") => new HttpError(404, `${what} not found`);
export const conflict = (message: string, errors?: FieldError[]) => new HttpError(409, message, errors);

/**
 * The unique indexes whose clash has a message of its own (`table.column` as SQLite names it). The
 * domains check first for a clear message; when two saves race past that check, the index refuses the
 * second and it gets the same 409 as the check would have given.
 */
const UNIQUE_CONFLICTS: Record<string, FieldError> = {
  "clients.clientCode": { path: "clientCode", message: MSG.clientCodeTaken },
  "suppliers.supplierShortCode": { path: "supplierShortCode", message: MSG.shortcodeTaken },
  "qualifications.qualificationKey": { path: "qualificationKey", message: MSG.qualificationKeyTaken },
  "users.email": { path: "email", message: MSG.emailTaken },
};

/** A database constraint error as the 409 it stands for (the field's own message where known), else null. */
export function constraintConflict(err: unknown): HttpError | null {
  const code = String((err as { code?: unknown })?.code ?? "");
  const msg = err instanceof Error ? err.message : "";
  if (!/SQLITE_CONSTRAINT/.test(code) && !/UNIQUE constraint failed/.test(msg)) return null;
  const column = /UNIQUE constraint failed: ([\w.]+)/.exec(msg)?.[1];
  const known = column ? UNIQUE_CONFLICTS[column] : undefined;
  return known ? conflict(known.message, [known]) : conflict(MSG.recordExists);
}
