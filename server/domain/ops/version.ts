/**
 * The release this process runs: the version of deno.json and the commit it was built from (`git
 * rev-parse` when the checkout is a git work tree and git may run, else GIT_COMMIT, which the
 * Dockerfile takes as a build argument, else "unknown"). Read once; /healthz and `--version` name it.
 */
import config from "../../../deno.json" with { type: "json" };
import { once } from "../../lib/memo.ts";

export const VERSION: string = (config as { version?: string }).version ?? "0.0.0";

/** The checkout's commit (null without git), asked once per process. */
const head = once(() => gitHead());

/** The commit: the checkout's, else GIT_COMMIT's, else "unknown". */
export function commitOf(envCommit: string | undefined = Deno.env.get("GIT_COMMIT")): string {
  return head() ?? (envCommit?.trim() || "unknown");
}

function gitHead(): string | null {
  try {
    const out = new Deno.Command("git", {
      args: ["rev-parse", "--short=12", "HEAD"],
      cwd: new URL("../../..", import.meta.url).pathname,
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    const sha = new TextDecoder().decode(out.stdout).trim();
    return out.success && /^[0-9a-f]{7,40}$/.test(sha) ? sha : null;
  } catch {
    // no git in the image, or no permission to run it (the production image allows no subprocess)
    return null;
  }
}

/** "0.9.0 (abc123def456)", what `--version` prints. */
export function releaseName(): string {
  return `${VERSION} (${commitOf()})`;
}
