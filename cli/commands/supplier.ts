/**
 * `supplier key add|list|revoke`: a supplier's API keys for the supply API (issue 23), through the
 * same domain functions as the staff's screens, audited as the CLI. `add` prints the new key as the
 * last word of its last line (scripts take it with `| tail -1 | awk '{print $NF}'`); it is not shown again.
 */
import type { Command } from "commander";
import { ApiKeyCreate } from "../../shared/api/supplier-api-keys.ts";
import {
  createSupplierApiKey,
  listSupplierApiKeys,
  revokeSupplierApiKey,
  supplierIdByCode,
} from "../../server/domain/suppliers/api-keys.ts";
import { cliActor } from "../../server/domain/audit/log.ts";
import { isNotFound } from "../../server/domain/errors.ts";
import type { Deps } from "../../server/deps.ts";
import { CliError, parseInput, say, withDeps } from "../context.ts";

const OPTION_OF = { name: "--name", expiresOn: "--expires" };

async function supplierOf(deps: Deps, code: string): Promise<string> {
  try {
    return await supplierIdByCode(deps.db, code);
  } catch (e) {
    if (isNotFound(e)) throw new CliError(`No live supplier has the short code ${code}`);
    throw e;
  }
}

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "-");

export function registerSupplierCommands(program: Command) {
  const supplier = program.command("supplier").description("suppliers: their API keys");
  const key = supplier.command("key").description("a supplier's API keys for the supply API (/supply/v1)");

  key.command("add")
    .description("create an API key; prints it once, as the last word of the last line")
    .argument("<supplierShortCode>", "the supplier's short code")
    .option("--name <name>", "what the key is for", "CLI key")
    .option("--expires <date>", "the last day the key works (yyyy-MM-dd, UTC); default: never")
    .action(async (code: string, o: { name: string; expires?: string }) => {
      const input = parseInput(ApiKeyCreate, { name: o.name, expiresOn: o.expires ?? "" }, OPTION_OF);
      await withDeps(async (deps) => {
        const supplierId = await supplierOf(deps, code);
        const k = await createSupplierApiKey({ db: deps.db, actor: cliActor(), now: deps.now }, {
          ...input,
          supplierId,
        });
        const expires = k.expiresAt ? `, expires after ${input.expiresOn}` : "";
        say(`Created API key "${k.name}" (id ${k._id}${expires}). It is not shown again; store it now.`);
        say(`Key: ${k.key}`);
      });
    });

  key.command("list")
    .description("list a supplier's API keys (never the keys themselves)")
    .argument("<supplierShortCode>", "the supplier's short code")
    .action(async (code: string) => {
      await withDeps(async (deps) => {
        const keys = await listSupplierApiKeys(deps, { supplierId: await supplierOf(deps, code) });
        if (!keys.length) return say(`No API keys for ${code}`);
        say(["id", "prefix", "state", "created", "last used", "expires", "name"].join("\t"));
        for (const k of keys) {
          say(
            [k._id, `${k.prefix}…`, k.state, day(k.createdAt), day(k.lastUsedAt), day(k.expiresAt), k.name]
              .join("\t"),
          );
        }
      });
    });

  key.command("revoke")
    .description("revoke an API key: calls with it are refused from now on")
    .argument("<supplierShortCode>", "the supplier's short code")
    .argument("<keyId>", "the key's id (from `supplier key list`)")
    .action(async (code: string, keyId: string) => {
      await withDeps(async (deps) => {
        const supplierId = await supplierOf(deps, code);
        try {
          const k = await revokeSupplierApiKey({ db: deps.db, actor: cliActor(), now: deps.now }, {
            supplierId,
            keyId,
          });
          say(`Revoked API key "${k.name}" (${k.prefix}…) of ${code}`);
        } catch (e) {
          if (isNotFound(e)) throw new CliError(`${code} has no API key with the id ${keyId}`);
          throw e;
        }
      });
    });
}
