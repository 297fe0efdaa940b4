/** `report progress <projectCode> --out file.png`: the progress report image, as the API renders it. */
import type { Command } from "commander";
import { progressData, projectIdByCode } from "../../server/domain/progress/data.ts";
import { progressPng } from "../../server/domain/progress/image.ts";
import { CliError, say, withDeps } from "../context.ts";
import { isNotFound } from "../../server/domain/errors.ts";

export function registerReportCommands(program: Command) {
  const report = program.command("report").description("Reports written to files");
  report.command("progress")
    .description("The progress report image (PNG) of a project")
    .argument("<projectCode>", "the project's code")
    .requiredOption("--out <file>", "where to write the PNG")
    .action(async (projectCode: string, o: { out: string }) => {
      const bytes = await withDeps(async (deps) => {
        try {
          const id = await projectIdByCode(deps.db, projectCode.trim());
          return await progressPng(await progressData(deps.db, id, deps.now()));
        } catch (e) {
          if (isNotFound(e)) throw new CliError(`no project with code ${projectCode}`);
          throw e;
        }
      });
      await Deno.writeFile(o.out, bytes);
      say(`wrote ${o.out} (${bytes.length} bytes)`);
    });
}
