/**
 * `deno task cli reconcile <projectCode> <file.csv> --type approved|rejected`: a subprocess against
 * a temporary database file; the summary it prints matches what the API then shows.
 */
import { runCli } from "../helpers/cli.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { back, enter, liveProject, router, uidOf } from "../helpers/router.ts";
import { reconcileMismatches } from "../../server/domain/reconcile/recount.ts";

/** A live project in the database of `env` with `n` completes: its group's code, its child, their uids. */
async function liveWithCompletes(env: Record<string, string>, n: number) {
  const t = await testApp(env);
  try {
    const s = await liveProject(t);
    const uids: string[] = [];
    for (let i = 0; i < n; i++) {
      const uid = uidOf((await enter(t, s.mapId, `cli${i}`)).location);
      await back(t, uid, "c");
      uids.push(uid);
    }
    await router(t).idle();
    return { code: s.parent.projectCode, childId: s.child._id, uids };
  } finally {
    await t.deps.services.router.close();
    await t.close();
  }
}

Deno.test("cli reconcile: approves a project's identifiers from a file and prints the summary; bad input is one line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-reconcile-" });
  const env = { DATABASE_URL: `file:${dir}/samplex.db` };
  try {
    const { code, childId, uids } = await liveWithCompletes(env, 3);
    const file = `${dir}/approved.csv`;
    await Deno.writeTextFile(file, `uid\n${uids[0]}\n\n"${uids[1]}"\n${uids[0]}\nffffffffffffffffffffffff\n`);
    const ok = await runCli(["reconcile", code, file, "--type", "approved"], env);
    assertEquals(ok.code, 0, ok.stderr);
    assertEquals(
      ok.stdout,
      `${code}: 2 approved of 3 identifiers; unknown 1, duplicate in the file 1, already reconciled 0, not a complete 0, approved post-backs queued 0`,
    );
    const t = await testApp(env);
    try {
      const row = await t.deps.db.selectFrom("projects").select("approved").where("id", "=", childId)
        .executeTakeFirstOrThrow();
      assertEquals(row.approved, 2);
      assertEquals(await reconcileMismatches(t.deps.db, [childId]), []);
      const log = await t.deps.db.selectFrom("system_logs").select(["name", "activity"])
        .where("module", "=", "Reconcile").execute();
      assertEquals(log.length, 1);
      assertEquals(log[0].name, "CLI");
    } finally {
      await t.close();
    }
    const bad = `${dir}/bad.csv`;
    await Deno.writeTextFile(bad, `${uids[2]}\n${uids[1]};x\tz\n`);
    const r1 = await runCli(["reconcile", code, bad, "--type", "rejected"], env);
    assertEquals([r1.code, r1.stdout], [1, ""]);
    assertMatch(r1.stderr, /^error: Line 2: /);
    const r2 = await runCli(["reconcile", "NOPE", file, "--type", "approved"], env);
    assertEquals([r2.code, r2.stderr], [1, "error: Project NOPE not found"]);
    const r3 = await runCli(["reconcile", code, file, "--type", "maybe"], env);
    assertEquals([r3.code, r3.stderr], [1, "error: --type: must be approved or rejected"]);
    const r4 = await runCli(["reconcile", code, `${dir}/missing.csv`, "--type", "approved"], env);
    assert(r4.code === 1 && r4.stderr.startsWith("error: Cannot read"), r4.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli reconcile: --unknown-out writes every identifier that matched nothing; a file of another project is refused by name and nothing is written", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-reconcile-unknown-" });
  const env = { DATABASE_URL: `file:${dir}/samplex.db` };
  try {
    const { code, uids } = await liveWithCompletes(env, 2);
    const file = `${dir}/approved.csv`;
    const unknown = Array.from({ length: 120 }, (_, i) => `nobody-${i}`);
    await Deno.writeTextFile(file, ["uid", unknown[0], uids[0], ...unknown.slice(1), uids[1], ""].join("\n"));
    const out = `${dir}/unknown.csv`;
    const ok = await runCli(["reconcile", code, file, "--type", "approved", "--unknown-out", out], env);
    assertEquals(ok.code, 0, ok.stderr);
    assertEquals(ok.stdout.split("\n"), [
      `${code}: 2 approved of 122 identifiers; unknown 120, duplicate in the file 0, already reconciled 0, not a complete 0, approved post-backs queued 0`,
      `wrote ${out} (120 unknown identifiers)`,
    ]);
    assertEquals(
      await Deno.readTextFile(out),
      "\uFEFFIdentifier\r\n" + unknown.map((u) => `${u}\r\n`).join(""),
    );

    // none of the file's identifiers is the project's: refused by name, nothing applied or written
    const wrong = `${dir}/wrong.csv`;
    await Deno.writeTextFile(wrong, "nobody-a\nnobody-b\nnobody-a\n");
    const out2 = `${dir}/unknown2.csv`;
    const refused = await runCli(
      ["reconcile", code, wrong, "--type", "rejected", "--unknown-out", out2],
      env,
    );
    assertEquals([refused.code, refused.stdout, refused.stderr], [
      1,
      "",
      `error: none of these 2 identifiers belong to ${code}: wrong project?`,
    ]);
    assertEquals(await Deno.stat(out2).then(() => true, () => false), false);
    // an --unknown-out that cannot be written is said before anything is applied
    const nowhere = await runCli(
      ["reconcile", code, file, "--type", "rejected", "--unknown-out", `${dir}/no/such/dir.csv`],
      env,
    );
    assertEquals([nowhere.code, nowhere.stderr], [1, `error: Cannot write ${dir}/no/such/dir.csv`]);
    const t = await testApp(env);
    try {
      const ups = await t.deps.db.selectFrom("reconciles").select(["type", "matched"]).execute();
      assertEquals(ups, [{ type: 1, matched: 2 }]);
    } finally {
      await t.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
