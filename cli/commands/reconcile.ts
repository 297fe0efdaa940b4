/**
 * `reconcile <projectCode> <file.csv> --type approved|rejected [--unknown-out FILE]`: the API's
 * upload (same parse rules, same domain function) from the command line; prints the result summary,
 * and with `--unknown-out` writes the identifiers that matched no session of the project to FILE
 * (the CSV the screen downloads, streamed from the database).
 */
import type { Command } from "commander";
import { cliActor } from "../../server/domain/audit/log.ts";
import { identifiersOfUpload, reconcileUpload } from "../../server/domain/reconcile/reconcile.ts";
import { RECONCILE_TYPE, reconcileTypeLabel } from "../../shared/schemas/reconcile.ts";
import { MAX_UPLOAD_BYTES } from "../../shared/schemas/reconcile.ts";
import { CliError, say, withDeps } from "../context.ts";
import { csvStream } from "../../server/http/csv.ts";
import { unknownColumns, unknownPages } from "../../server/domain/reconcile/unknown.ts";

const TYPES: Record<string, 1 | 2> = { approved: RECONCILE_TYPE.APPROVED, rejected: RECONCILE_TYPE.REJECTED };

export function registerReconcileCommands(program: Command) {
  program.command("reconcile")
    .description("approve or reject a project's respondent identifiers from a file (one a line)")
    .argument("<projectCode>", "the project's code (a group project: its children's sessions)")
    .argument("<file>", "the identifier file (CSV, one identifier a line)")
    .requiredOption("--type <type>", "approved or rejected")
    .option("--unknown-out <file>", "write the identifiers that matched no session of the project here (CSV)")
    .action(async (projectCode: string, file: string, opts: { type: string; unknownOut?: string }) => {
      const type = TYPES[opts.type.trim().toLowerCase()];
      if (!type) throw new CliError("--type: must be approved or rejected");
      let size = 0;
      try {
        size = (await Deno.stat(file)).size;
      } catch {
        throw new CliError(`Cannot read ${file}`);
      }
      if (size > MAX_UPLOAD_BYTES) throw new CliError(`${file} is too large (at most 20 MiB)`);
      const csv = await Deno.readTextFile(file);
      // a file that cannot be written is said before anything is applied
      const unknownOut = opts.unknownOut === undefined ? null : await writable(opts.unknownOut);
      try {
        await withDeps(async (deps) => {
          const p = await deps.db.selectFrom("projects").select("id").where(
            "projectCode",
            "=",
            projectCode.trim(),
          )
            .where("isDeleted", "=", 0).executeTakeFirst();
          if (!p) throw new CliError(`Project ${projectCode} not found`);
          const ids = await identifiersOfUpload({ csv, fileName: file.split("/").pop() ?? file });
          const s = await reconcileUpload({ ...deps, actor: cliActor() }, { projectId: p.id, type, ids });
          // the approved post-backs it queued get their first attempt before the command ends (claimed
          // with a lease like any sender's, so a server sharing the database never sends one twice)
          await deps.services.router.close();
          say(
            `${s.projectCode}: ${s.matched} ${
              reconcileTypeLabel(s.type).toLowerCase()
            } of ${s.identifiers} identifiers; ` +
              `unknown ${s.unknown}, duplicate in the file ${s.duplicates}, already reconciled ${s.alreadyReconciled}, ` +
              `not a complete ${s.notComplete}, approved post-backs queued ${s.hooksQueued}`,
          );
          if (unknownOut) {
            const out = await Deno.open(unknownOut.path, { write: true, truncate: true });
            await csvStream(unknownColumns, unknownPages(deps, s._id)).pipeTo(out.writable);
            say(`wrote ${unknownOut.path} (${s.unknown} unknown identifiers)`);
          }
        });
      } catch (e) {
        await unknownOut?.discard();
        throw e;
      }
    });
}

/**
 * Checks that `path` can be written, without changing a file already there; `discard` removes the
 * empty file the check made when the command fails.
 */
async function writable(path: string) {
  const existed = await Deno.stat(path).then(() => true, () => false);
  try {
    (await Deno.open(path, { write: true, create: true })).close();
  } catch {
    throw new CliError(`Cannot write ${path}`);
  }
  return { path, discard: () => existed ? Promise.resolve() : Deno.remove(path).catch(() => {}) };
}
