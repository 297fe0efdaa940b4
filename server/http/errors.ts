/** Errors that become 4xx answers: `{ message, errors? }` (design.md section 4). */
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
