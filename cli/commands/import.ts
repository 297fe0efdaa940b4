/**
 * `import list <provider> [--country CC]`: a provider's offers as a table; `import add <provider>
 * <surveyId> --client <clientId> [--manager <email>]`: the offer as a project (group + child), as the
 * import pages do. The providers come from PROVIDER_<NAME>_URL / _KEY (the CLI never uses the sandbox).
 */
import type { Command } from "commander";
import { CliError, say, withDeps } from "../context.ts";
import { importOffer } from "../../server/domain/imports/import.ts";
import { cliActor } from "../../server/domain/audit/log.ts";
import { isProviderKey, PROVIDER_KEYS, type ProviderKey } from "../../shared/schemas/providers.ts";
import type { Deps } from "../../server/deps.ts";
import { clientExists } from "../../server/domain/clients/lookup.ts";
import { DomainError } from "../../server/domain/errors.ts";

function providerArg(name: string): ProviderKey {
  const key = name.trim().toLowerCase();
  if (!isProviderKey(key)) {
    throw new CliError(`unknown provider "${name}": one of ${PROVIDER_KEYS.join(", ")}`);
  }
  return key;
}

/** Rows as a plain text table with a header line. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

/** The user an import made from the CLI is managed by: the given e-mail, else the first active SUPERADMIN. */
async function managerOf(deps: Deps, email?: string) {
  let q = deps.db.selectFrom("users").select(["id", "role"]).where("isDeleted", "=", 0).where(
    "isActive",
    "=",
    1,
  );
  q = email ? q.where("email", "=", email.trim().toLowerCase()) : q.where("role", "=", "SUPERADMIN");
  const u = await q.orderBy("createdAt").executeTakeFirst();
  if (!u || u.role === "SUPPLIER") {
    throw new CliError(
      email ? `no active staff user with e-mail ${email}` : "no active SUPERADMIN: pass --manager <email>",
    );
  }
  return u;
}

export function registerImportCommands(program: Command) {
  const cmd = program.command("import").description("External providers' survey offers");
  cmd.command("list")
    .description("Lists a provider's survey offers")
    .argument("<provider>", PROVIDER_KEYS.join(" | "))
    .option("--country <CC>", "only offers of this country (ISO code)")
    .action(async (name: string, o: { country?: string }) => {
      const key = providerArg(name);
      const offers = await withDeps(async (deps) =>
        await deps.services.providers.get(key).listOffers({
          countryCode: o.country?.trim().toUpperCase() || undefined,
        })
      );
      if (!offers.length) return say("no offers");
      console.log(table(
        ["ID", "COUNTRY", "CPI", "LOI", "IR", "REMAINING", "END", "TITLE"],
        offers.map((x) => [
          x.surveyId,
          x.countryCode,
          x.cpi.toFixed(2),
          String(x.loi),
          String(x.ir),
          String(x.remaining),
          x.endDate ?? "",
          x.title,
        ]),
      ));
    });
  cmd.command("add")
    .description("Turns an offer into a project (a group and its child)")
    .argument("<provider>", PROVIDER_KEYS.join(" | "))
    .argument("<surveyId>", "the provider's survey id")
    .requiredOption("--client <clientId>", "the client the project is for")
    .option("--manager <email>", "the project manager (default: the first SUPERADMIN)")
    .action(async (name: string, surveyId: string, o: { client: string; manager?: string }) => {
      const key = providerArg(name);
      const r = await withDeps(async (deps) => {
        // an unknown client is named as such (the import itself would only say one is required)
        const clientId = o.client.trim();
        try {
          await clientExists(deps.db, clientId);
        } catch (e) {
          if (e instanceof DomainError) throw new CliError(`--client: no live client has the id ${clientId}`);
          throw e;
        }
        const adapter = deps.services.providers.get(key);
        const manager = await managerOf(deps, o.manager);
        const ctx = { ...deps, actor: cliActor(), userId: manager.id, role: "SUPERADMIN" as const };
        return await importOffer(ctx, { surveyId: surveyId.trim(), clientId, adapter });
      });
      say(
        `created project ${r.projectCode} (group ${r.groupProjectCode}): ${r.quotas} quotas, ${r.qualifications} questions`,
      );
    });
}
