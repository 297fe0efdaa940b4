/**
 * `reconcile <projectCode> <file.csv> --type approved|rejected`: the API's upload (same parse rules,
 * same domain function, one transaction) from the command line; prints the result summary.
 */
import type { Command } from "commander";
import { cliActor } from "../../server/domain/audit/log.ts";
import { identifiersOfUpload, reconcileUpload } from "../../server/domain/reconcile/reconcile.ts";
import { RECONCILE_TYPE, reconcileTypeLabel } from "../../shared/schemas/reconcile.ts";
import { MAX_UPLOAD_BYTES } from "../../shared/schemas/reconcile.ts";
import { closeRouter } from "../../server/domain/router/router.ts";
import { CliError, say, withDeps } from "../context.ts";

const TYPES: Record<string, 1 | 2> = { approved: RECONCILE_TYPE.APPROVED, rejected: RECONCILE_TYPE.REJECTED };

export function registerReconcileCommands(program: Command) {
  program.command("reconcile")
    .description("approve or reject a project's respondent identifiers from a file (one a line)")
    .argument("<projectCode>", "the project's code (a group project: its children's sessions)")
    .argument("<file>", "the identifier file (CSV, one identifier a line)")
    .requiredOption("--type <type>", "approved or rejected")
    .action(async (projectCode: string, file: string, opts: { type: string }) => {
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
      await withDeps(async (deps) => {
        const p = await deps.db.selectFrom("projects").select("id").where(
          "projectCode",
          "=",
          projectCode.trim(),
        )
          .where("isDeleted", "=", 0).executeTakeFirst();
        if (!p) throw new CliError(`Project ${projectCode} not found`);
        const ids = await identifiersOfUpload({ csv, fileName: file.split("/").pop() ?? file });
        const s = await reconcileUpload(deps, cliActor(), p.id, type, ids);
        // the approved post-backs it queued get their first attempt before the command ends (claimed
        // with a lease like any sender's, so a server sharing the database never sends one twice)
        await closeRouter(deps);
        say(
          `${s.projectCode}: ${s.matched} ${
            reconcileTypeLabel(s.type).toLowerCase()
          } of ${s.identifiers} identifiers; ` +
            `unknown ${s.unknown}, duplicate in the file ${s.duplicates}, already reconciled ${s.alreadyReconciled}, ` +
            `not a complete ${s.notComplete}, approved post-backs queued ${s.hooksQueued}`,
        );
      });
    });
}
