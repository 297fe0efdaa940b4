/**
 * `report <kind> [--from --to --client --supplier] --out file.csv`: a report tab's CSV (every
 * matching row, the API's columns, from the same domain functions); `report progress <projectCode>
 * --out file.png`: the progress report image, as the API renders it.
 */
import type { Command } from "commander";
import { REPORT_KINDS, REPORT_LISTS, REPORT_TITLES, ReportFilter } from "../../shared/api/reports.ts";
import { reportPages } from "../../server/domain/reports/reports.ts";
import { csvStream } from "../../server/http/csv.ts";
import type { Db } from "../../server/db/connection.ts";
import { parseInput } from "../context.ts";
import { progressData, projectIdByCode } from "../../server/domain/progress/data.ts";
import { progressPng } from "../../server/domain/progress/image.ts";
import { CliError, say, withDeps } from "../context.ts";
import { isNotFound } from "../../server/domain/errors.ts";

/** A client or supplier named by its id or its code. */
async function idOf(db: Db, what: "client" | "supplier", ref: string | undefined): Promise<string | null> {
  const value = ref?.trim();
  if (!value) return null;
  const row = what === "client"
    ? await db.selectFrom("clients").select("id")
      .where((eb) => eb.or([eb("id", "=", value), eb("clientCode", "=", value)])).executeTakeFirst()
    : await db.selectFrom("suppliers").select("id")
      .where((eb) => eb.or([eb("id", "=", value), eb("supplierShortCode", "=", value)])).executeTakeFirst();
  if (!row) throw new CliError(`--${what}: no ${what} with id or code ${value}`);
  return row.id;
}

type ReportOptions = { from?: string; to?: string; client?: string; supplier?: string; out: string };

export function registerReportCommands(program: Command) {
  const report = program.command("report").description("Reports written to files");
  for (const kind of REPORT_KINDS) {
    report.command(kind)
      .description(`The ${REPORT_TITLES[kind]} report (every matching row) as CSV`)
      .option("--from <yyyy-MM-dd>", "first day (UTC), included")
      .option("--to <yyyy-MM-dd>", "last day (UTC), included")
      .option("--client <id|code>", "one client's projects")
      .option("--supplier <id|code>", "one supplier's traffic")
      .requiredOption("--out <file>", "where to write the CSV")
      .action(async (o: ReportOptions) => {
        const { from, to } = parseInput(ReportFilter, { from: o.from ?? null, to: o.to ?? null }, {
          from: "--from",
          to: "--to",
        });
        const rows = await withDeps(async (deps) => {
          const filter = {
            from,
            to,
            clientId: await idOf(deps.db, "client", o.client),
            supplierId: await idOf(deps.db, "supplier", o.supplier),
          };
          const body = { filter, search: "", pageNo: 1, limit: 100 } as never;
          const file = await Deno.open(o.out, { write: true, create: true, truncate: true });
          let n = 0;
          const counted = async function* () {
            for await (const page of reportPages(deps.db, kind, body)) {
              n += page.length;
              yield page;
            }
          };
          await csvStream(REPORT_LISTS[kind].columns, counted()).pipeTo(file.writable);
          return n;
        });
        say(`wrote ${o.out} (${rows} rows)`);
      });
  }
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
