/**
 * What every CLI command shares: the server's validated environment and deps (never HTTP), one-line
 * output, and errors that end the process with a non-zero status and a one-line reason.
 */
import * as v from "valibot";
import { EnvError, loadEnv } from "../server/env.ts";
import { buildDeps } from "../server/boot.ts";
import type { Deps } from "../server/deps.ts";
import { constraintConflict, DomainError } from "../server/domain/errors.ts";

/** An expected failure: printed as `error: <message>` and exit status 1. */
export class CliError extends Error {}

/** The environment as the server sees it, or a CliError naming every problem on one line. */
export function cliEnv() {
  try {
    return loadEnv();
  } catch (e) {
    if (e instanceof EnvError) {
      throw new CliError(e.message.replace(/:?\n\s*-\s*/g, (m) => (m.startsWith(":") ? ": " : "; ")));
    }
    throw e;
  }
}

/** Runs `fn` with the server's deps (database opened and migrated), closing its services and the database after. */
export async function withDeps<T>(fn: (deps: Deps) => Promise<T>): Promise<T> {
  const env = cliEnv();
  const { deps, handle } = await buildDeps({ ...env, LOG_LEVEL: "silent" });
  try {
    return await fn(deps);
  } finally {
    await deps.services.close();
    await handle.close();
  }
}

/**
 * Validates input with a shared schema; the first problem becomes the error, prefixed with the
 * command-line option it came from (`--password: Password must be more than 6 character`).
 */
export function parseInput<S extends v.GenericSchema>(
  schema: S,
  value: unknown,
  options: Record<string, string> = {},
  /** Fields whose problems are told before any other's (what the user typed before what was guessed). */
  first: string[] = [],
): v.InferOutput<S> {
  const r = v.safeParse(schema, value);
  if (r.success) return r.output;
  const fieldOf = (i: v.BaseIssue<unknown>) => (v.getDotPath(i) ?? "").split(".")[0];
  const issue = r.issues.find((i) => first.includes(fieldOf(i))) ?? r.issues[0];
  const path = v.getDotPath(issue) ?? "";
  const option = options[path.split(".")[0]];
  throw new CliError(option ? `${option}: ${issue.message}` : issue.message);
}

/** Prints the one line a successful command says. */
export function say(line: string) {
  console.log(line);
}

/** The one-line reason for any failure; business errors (DomainError) keep their user-facing message. */
export function reasonOf(e: unknown): string {
  if (e instanceof CliError || e instanceof DomainError) return e.message;
  const conflict = constraintConflict(e);
  if (conflict) return conflict.message;
  const msg = e instanceof Error ? e.message : String(e);
  const line = msg.split("\n")[0];
  if (/ECONNREFUSED|Connection refused|fetch failed|error sending request/i.test(line)) {
    return `Cannot reach the database: ${line.replace(/^Cannot migrate the database: /, "")}`;
  }
  return line || "Unknown error";
}
