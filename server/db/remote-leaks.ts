/**
 * @libsql/client 0.18 leaks rejected promises on a remote primary. Its atomic `batch()` over HTTP
 * (`executeHranaBatch`) makes one promise per step and per COMMIT, awaits them in order and stops at
 * the first failure: when sqld times a batch's transaction out in the middle (another writer waited
 * past sqld's lock limit, as on a starved machine), the steps after the failing one and the COMMIT
 * reject too, and nothing ever handles them. The caller does get the error (a LibsqlBatchError with
 * TRANSACTION_TIMEOUT, which the router's writer treats like any failed batch); the leftovers would
 * end the process as uncaught `ResponseError: Transaction timed out`.
 *
 * The library maps every error it hands to a caller into a LibsqlError, so a raw hrana
 * `ResponseError` that reaches the unhandled-rejection event is by construction one of these
 * leftovers: it is swallowed (counted, for tests and the log) and any other rejection is left alone.
 */
let installed = false;
let swallowed = 0;

/** How many leaked hrana step rejections were swallowed in this process. */
export function leakedHranaRejections(): number {
  return swallowed;
}

function isLeakedHranaStepError(reason: unknown): boolean {
  if (!(reason instanceof Error) || reason.name !== "ResponseError") return false;
  // hrana's ResponseError carries the server's error object (`proto`); a LibsqlError never does
  return "proto" in reason;
}

/** Installs the guard once per process (idempotent): a remote database opens it. */
export function guardRemoteClientLeaks(): void {
  if (installed) return;
  installed = true;
  globalThis.addEventListener("unhandledrejection", (event) => {
    if (!isLeakedHranaStepError(event.reason)) return;
    swallowed++;
    event.preventDefault();
  });
}
