/**
 * The answer schemas of the API references (/api/v1 and the supply API), generated from the contracts' result types (one source:
 * `result: returns<T>()` in shared/api/<area>.ts). The script writes a scratch module that names
 * `ResultOf<typeof contract>` for every declared call answering JSON, and lets the npm generator
 * typescript-json-schema (it asks the TypeScript checker, so types inferred from valibot schemas and
 * generics resolve) turn them into JSON Schema in one pass. The output, server/openapi-results.json,
 * is committed; server/openapi.ts serves the document from it.
 *
 *   deno task openapi            writes server/openapi-results.json
 *   deno task openapi --check    exits 1 when the committed file differs from the contracts
 *
 * tests/api/openapi_results_test.ts fails while the committed file is stale.
 */
import * as TJS from "typescript-json-schema";
import { declaredCalls } from "../server/openapi.ts";
import { declaredSupplyCalls } from "../server/supply/openapi.ts";
import type { AnyContract } from "../shared/api/contract.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const API_DIR = `${ROOT}shared/api/`;
export const RESULTS_FILE = `${ROOT}server/openapi-results.json`;

/** What the script writes: each call's result schema by "METHOD /path", and the schemas they use. */
export type ResultsFile = {
  $comment: string;
  results: Record<string, unknown>;
  schemas: Record<string, unknown>;
};

/** Where each contract is declared: its module file and export name. */
async function declarations(): Promise<Map<AnyContract, { file: string; name: string }>> {
  const out = new Map<AnyContract, { file: string; name: string }>();
  const files = [...Deno.readDirSync(API_DIR)].map((e) => e.name).filter((n) =>
    n.endsWith(".ts") && !n.startsWith(".")
  ).sort();
  for (const file of files) {
    const mod = await import(`${API_DIR}${file}`) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (value && typeof value === "object" && !out.has(value as AnyContract)) {
        out.set(value as AnyContract, { file, name });
      }
    }
  }
  return out;
}

/** A call answers the JSON envelope unless it declares a file's media type (the event stream is JSON data). */
export const answersJson = (c: AnyContract) => !c.media || c.media === "text/event-stream";

/** Generates the results file's content from the contracts as they are now. */
export async function generateResults(): Promise<ResultsFile> {
  const where = await declarations();
  const modules = new Map<string, string>();
  const fields: string[] = [];
  const supply = declaredSupplyCalls().map(({ contract }) => contract as unknown as AnyContract);
  for (const contract of [...declaredCalls().map((c) => c.contract), ...supply]) {
    if (!answersJson(contract)) continue;
    const at = where.get(contract);
    if (!at) throw new Error(`${contract.key}: not exported by a module of shared/api/`);
    if (!modules.has(at.file)) modules.set(at.file, `m${modules.size}`);
    fields.push(`  ${JSON.stringify(contract.key)}: ResultOf<typeof ${modules.get(at.file)}.${at.name}>;`);
  }
  const entry = `${API_DIR}.openapi-results.ts`;
  Deno.writeTextFileSync(
    entry,
    [
      `import type { ResultOf } from "./contract.ts";`,
      ...[...modules].map(([file, alias]) => `import type * as ${alias} from "./${file}";`),
      `export type __Results = {`,
      ...fields,
      `};`,
    ].join("\n"),
  );
  try {
    const program = TJS.getProgramFromFiles([entry], {
      strict: true,
      noEmit: true,
      allowImportingTsExtensions: true,
      module: 99, // ESNext
      moduleResolution: 100, // Bundler
      target: 99,
      skipLibCheck: true,
      lib: ["lib.esnext.d.ts", "lib.dom.d.ts"],
    }, ROOT);
    const schema = TJS.generateSchema(program, "__Results", {
      required: true,
      ref: true,
      aliasRef: false,
      strictNullChecks: true,
      ignoreErrors: true,
    });
    if (!schema) throw new Error("typescript-json-schema produced no schema");
    const files = Object.entries(schema.properties ?? {})
      .filter(([, answer]) => /"#\/definitions\/(Blob|Response)"/.test(JSON.stringify(answer)));
    if (files.length) {
      throw new Error(
        `${
          files.map(([key]) => key).join(", ")
        }: a file answer; declare its media type on the contract (media)`,
      );
    }
    return tidy(schema as { properties: Record<string, unknown>; definitions?: Record<string, unknown> });
  } finally {
    Deno.removeSync(entry);
  }
}

/**
 * Moves the generator's definitions to OpenAPI component names (`Result.ClientListItem`; an inline
 * type the checker names by its structure becomes `Result.Inline_<n>`) and points every `$ref` at them.
 */
function tidy(
  schema: { properties: Record<string, unknown>; definitions?: Record<string, unknown> },
): ResultsFile {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  let inline = 0;
  for (const name of Object.keys(schema.definitions ?? {}).sort()) {
    const readable = /^[A-Za-z_][\w<>, .]*$/.test(name) && name.length <= 80;
    const base = readable
      ? `Result.${name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/_+$/, "")}`
      : `Result.Inline_${++inline}`;
    let unique = base;
    for (let i = 2; taken.has(unique); i++) unique = `${base}_${i}`;
    taken.add(unique);
    names.set(name, unique);
  }
  const rewrite = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(rewrite);
    if (!x || typeof x !== "object") return x;
    return Object.fromEntries(
      Object.entries(x).map(([k, val]) => {
        if (k === "$ref" && typeof val === "string" && val.startsWith("#/definitions/")) {
          const name = names.get(decodeURIComponent(val.slice("#/definitions/".length)));
          if (!name) throw new Error(`unresolved reference ${val}`);
          return [k, `#/components/schemas/${name}`];
        }
        return [k, rewrite(val)];
      }),
    );
  };
  const schemas = Object.entries(schema.definitions ?? {})
    .map(([name, def]) => [names.get(name)!, rewrite(def)] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  return {
    $comment:
      "Generated by `deno task openapi` from the contracts' result types (shared/api/*.ts). Do not edit.",
    results: rewrite(schema.properties) as Record<string, unknown>,
    schemas: Object.fromEntries(schemas),
  };
}

if (import.meta.main) {
  const fresh = await generateResults();
  if (Deno.args.includes("--check")) {
    const committed = JSON.parse(Deno.readTextFileSync(RESULTS_FILE));
    const same = JSON.stringify(committed) === JSON.stringify(fresh);
    console.log(
      same
        ? "server/openapi-results.json is up to date"
        : "server/openapi-results.json is stale: run deno task openapi",
    );
    Deno.exit(same ? 0 : 1);
  }
  Deno.writeTextFileSync(RESULTS_FILE, `${JSON.stringify(fresh, null, 2)}\n`);
  const fmt = await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", RESULTS_FILE] }).output();
  if (!fmt.success) throw new Error(new TextDecoder().decode(fmt.stderr));
  console.log(`server/openapi-results.json: ${Object.keys(fresh.results).length} typed answers`);
}
