/**
 * Errors that become 4xx answers: `{ message, errors? }` (design.md section 4). The domain throws
 * its own `DomainError` (server/domain/errors.ts); `httpErrorOf` maps it, and the few errors only
 * HTTP knows (a body too large, not JSON) are `HttpError`s made here.
 */
import { constraintConflict, DomainError, type DomainErrorKind, type FieldError } from "../domain/errors.ts";

export type { FieldError };

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502 | 503;

export class HttpError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
  }
}

/** The status each business error is answered with. */
export const STATUS_OF: Record<DomainErrorKind, ErrorStatus> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  tooManyAttempts: 429,
  upstream: 502,
};

export const badRequest = (message: string, errors?: FieldError[]) => new HttpError(400, message, errors);
export const unauthorized = (message: string) => new HttpError(401, message);
// named http* so they are never taken for the domain's forbidden/notFound (server/domain/errors.ts)
export const httpForbidden = (message: string) => new HttpError(403, message);
export const httpNotFound = (what = "Record") => new HttpError(404, `${what} not found`);

/** Any error as the 4xx it stands for (domain errors, constraint clashes), or null for a real fault. */
export function httpErrorOf(err: unknown): HttpError | null {
  if (err instanceof HttpError) return err;
  const domain = err instanceof DomainError ? err : constraintConflict(err);
  return domain ? new HttpError(STATUS_OF[domain.kind], domain.message, domain.errors) : null;
}
