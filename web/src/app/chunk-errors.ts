/**
 * A screen's code is loaded on first use; when that load fails, either Samplex cannot be reached
 * (an outage, no network) or the files were replaced by a new release. The two call for different
 * advice, so a failed load is followed by a look at /healthz, bypassing every cache.
 */

/** The messages browsers and Vite give when a lazily loaded module or its CSS cannot be fetched. */
const CHUNK_FAILURE =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS|Failed to load module script/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_FAILURE.test(error.message);
}

export type ChunkFailure = "unreachable" | "new-version";

/**
 * Why a chunk failed: "new-version" when the server answers its health check, "unreachable" when
 * it does not answer, answers with an error (a proxy in front of a stopped server), or takes
 * longer than `timeoutMs`.
 */
export async function explainChunkFailure(
  probe: (signal: AbortSignal) => Promise<Response> = (signal) =>
    fetch("/healthz", { cache: "no-store", signal }),
  timeoutMs = 5_000,
): Promise<ChunkFailure> {
  try {
    const res = await probe(AbortSignal.timeout(timeoutMs));
    return res.ok ? "new-version" : "unreachable";
  } catch {
    return "unreachable";
  }
}
