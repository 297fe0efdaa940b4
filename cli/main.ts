/**
 * The Samplex CLI (`deno task cli <command>`): commander over the same domain functions, environment
 * and schemas as the server. Success prints one line; any error prints `error: <reason>` on one
 * line and exits with status 1.
 */
import { Command, CommanderError } from "commander";
import { registerDbCommands } from "./commands/db.ts";
import { registerUserCommands } from "./commands/user.ts";
import { registerReportCommands } from "./commands/report.ts";
import { registerReconcileCommands } from "./commands/reconcile.ts";
import { registerInvoiceCommands } from "./commands/invoice.ts";
import { registerImportCommands } from "./commands/import.ts";
import { registerSupplierCommands } from "./commands/supplier.ts";
import { reasonOf } from "./context.ts";
import { releaseName } from "../server/domain/ops/version.ts";

export function buildProgram(): Command {
  const program = new Command("deno task cli")
    .description("Samplex back-office: database, users, reconciles, invoices and reports")
    .version(releaseName(), "-V, --version", "print the version and the commit")
    .exitOverride();
  registerDbCommands(program);
  registerUserCommands(program);
  registerReconcileCommands(program);
  registerInvoiceCommands(program);
  registerReportCommands(program);
  registerImportCommands(program);
  registerSupplierCommands(program);
  return program;
}

export async function runCli(args: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(args, { from: "user" });
    return 0;
  } catch (e) {
    // commander has already printed its own usage error (or the help, with exit code 0)
    if (e instanceof CommanderError) return e.exitCode;
    console.error(`error: ${reasonOf(e)}`);
    if (Deno.env.get("LOG_LEVEL") === "debug" && e instanceof Error) console.error(e.stack);
    return 1;
  }
}

if (import.meta.main) {
  Deno.exit(await runCli(Deno.args));
}
