/**
 * `supplier key add|list|revoke` (issue 23): the CLI as a user runs it, against a temporary database
 * file. `add` prints the key as the last word of its last line and the key opens /supply/v1; `list`
 * never prints a key; `revoke` stops it at once; each error is one line and a non-zero exit.
 */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { SUPPLY_BASE, supplyQuestionsCall } from "../../shared/api/supply.ts";
import { assertCliFails, runCli } from "../helpers/cli.ts";

/** The status of GET /supply/v1/questions with a key, on the app over the same database. */
async function supplyStatus(env: Record<string, string>, key: string) {
  const t = await testApp(env);
  try {
    const res = await t.app.request(`${SUPPLY_BASE}${supplyQuestionsCall.path}`, {
      headers: { "X-Api-Key": key },
    });
    await res.body?.cancel();
    return res.status;
  } finally {
    await t.close();
  }
}

Deno.test("cli supplier key: add prints the key last, list never shows it, revoke stops it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-cli-keys-" });
  const env = { DATABASE_URL: `file:${dir}/samplex.db` };
  try {
    const t = await testApp(env);
    let code: string;
    try {
      code = (await makeSupplier(t)).supplierShortCode;
    } finally {
      await t.close();
    }

    const add = await runCli([
      "supplier",
      "key",
      "add",
      code.toLowerCase(),
      "--name",
      "Nightly sync",
      "--expires",
      "2999-12-31",
    ], env);
    assertEquals(add.code, 0, add.stderr);
    const lines = add.stdout.split("\n");
    const key = lines.at(-1)!.split(/\s+/).at(-1)!;
    assertMatch(key, /^spx_[A-Za-z0-9_-]{43}$/);
    assertMatch(lines[0], /^Created API key "Nightly sync" \(id [0-9a-f]{24}, expires after 2999-12-31\)/);
    const keyId = /id ([0-9a-f]{24})/.exec(lines[0])![1];
    assertEquals(await supplyStatus(env, key), 200);

    const list = await runCli(["supplier", "key", "list", code], env);
    assertEquals(list.code, 0, list.stderr);
    assert(!list.stdout.includes(key), "list prints the key");
    const row = list.stdout.split("\n").find((l) => l.startsWith(keyId))!;
    assertEquals(row.split("\t").slice(1, 3), [`${key.slice(0, 12)}…`, "active"]);
    assertEquals(row.split("\t").at(-1), "Nightly sync");
    // the key works through the whole of its last day: it stops at the next midnight (UTC)
    assertEquals(row.split("\t")[5], "3000-01-01");

    const revoke = await runCli(["supplier", "key", "revoke", code, keyId], env);
    assertEquals(revoke.code, 0, revoke.stderr);
    assertMatch(revoke.stdout, /^Revoked API key "Nightly sync"/);
    assertEquals(await supplyStatus(env, key), 401);
    const after = await runCli(["supplier", "key", "list", code], env);
    assertMatch(after.stdout, new RegExp(`^${keyId}\\t[^\\t]+\\trevoked\\t`, "m"));

    assertCliFails(
      await runCli(["supplier", "key", "add", "NOPE"], env),
      "No live supplier has the short code NOPE",
    );
    assertCliFails(
      await runCli(["supplier", "key", "add", code, "--expires", "soon"], env),
      "--expires: Expiry date must be a date (yyyy-MM-dd)",
    );
    assertCliFails(
      await runCli(["supplier", "key", "add", code, "--expires", "2001-01-01"], env),
      "Expiry date must be today or later",
    );
    assertCliFails(
      await runCli(["supplier", "key", "revoke", code, "0".repeat(24)], env),
      `${code} has no API key with the id ${"0".repeat(24)}`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
