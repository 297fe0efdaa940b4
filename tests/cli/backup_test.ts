/**
 * `db backup` / `db restore` as an operator runs them: subprocesses against the database file of a
 * server (an app in this process) that keeps serving respondents meanwhile.
 */
import { runCli } from "../helpers/cli.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { makeParent } from "../helpers/fixtures.ts";
import { back, enter, liveProject, uidOf } from "../helpers/router.ts";
import { openDatabase } from "../../server/db/connection.ts";
import { counterMismatches } from "../../server/domain/router/recount.ts";
import { beat, readHeartbeat } from "../../server/domain/ops/heartbeat.ts";
import { migrationState } from "../../server/domain/ops/health.ts";

const root = new URL("../..", import.meta.url).pathname;
async function count(url: string, table: "sessions" | "projects") {
  const h = await openDatabase(url);
  try {
    const r = await h.db.selectFrom(table).select(({ fn }) => fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  } finally {
    await h.close();
  }
}

Deno.test("db backup under router load, restored into a new file: every counter equals a recount of its sessions", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-backup-" });
  const live = `file:${dir}/live.db`;
  const t = await testApp({ DATABASE_URL: live });
  try {
    const { mapId } = await liveProject(t);
    const second = await liveProject(t);
    // respondents keep arriving and returning until the backup is done
    let stop = false, sent = 0;
    const traffic = (async () => {
      let i = 0;
      while (!stop) {
        const wave = await Promise.all(
          Array.from({ length: 10 }, () => enter(t, i++ % 2 ? mapId : second.mapId, `r-${i}`)),
        );
        sent += wave.length;
        await Promise.all(
          // a third return; those the project refused (its quota full) have no survey to return from
          wave.filter((w, k) => k % 3 === 0 && /[?&]uid=/.test(w.location))
            .map((w) => back(t, uidOf(w.location), k3(w.location))),
        );
      }
    })();
    while (sent < 50) await new Promise((r) => setTimeout(r, 10));
    const backup = await runCli(["db", "backup", "--out", `${dir}/snap/backup.db`], { DATABASE_URL: live });
    const sentAtBackup = sent;
    while (sent < sentAtBackup + 30) await new Promise((r) => setTimeout(r, 10));
    stop = true;
    await traffic;
    assertEquals(backup.code, 0, backup.stderr);
    assertMatch(backup.stdout, /^Backed up the database to .*backup\.db \([\d.]+ (KiB|MiB)\, \d+ ms\)$/);

    const restored = `file:${dir}/restored.db`;
    const r = await runCli(["db", "restore", `${dir}/snap/backup.db`], { DATABASE_URL: restored });
    assertEquals(r.code, 0, r.stderr);
    assertMatch(r.stdout, /: integrity ok, migrations at \d{4}_\w+$/);

    const h = await openDatabase(restored);
    try {
      assertEquals(await counterMismatches(h.db), [], "the snapshot is consistent: counters = sessions");
      assertEquals((await migrationState(h.db)).current, true);
      assertEquals(await readHeartbeat(h.db), null, "the copy carries no server's heartbeat");
    } finally {
      await h.close();
    }
    // taken in the middle of the traffic: some sessions, not those sent after it
    const inBackup = await count(restored, "sessions");
    const inLive = await count(live, "sessions");
    assert(inBackup >= 50 && inBackup < inLive, `backup ${inBackup} sessions, live ${inLive}`);
    assertEquals(await counterMismatches(t.deps.db), [], "the live database is exact too");
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Completes and terminates alternate by the uid's last digit. */
function k3(location: string) {
  return parseInt(uidOf(location).slice(-1), 16) % 2 ? "c" : "t";
}

Deno.test("db restore: refuses a database a server is using unless --force, and a file that is no backup", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-restore-" });
  try {
    const target = `file:${dir}/target.db`;
    const source = `file:${dir}/source.db`;
    for (const url of [target, source]) {
      const t = await testApp({ DATABASE_URL: url });
      await makeOne(t, url === source ? 2 : 1);
      await t.close();
    }
    const backup = await runCli(["db", "backup", "--out", `${dir}/b.db`], { DATABASE_URL: source });
    assertEquals(backup.code, 0, backup.stderr);
    // a second backup to the same file is refused
    const again = await runCli(["db", "backup", "--out", `${dir}/b.db`], { DATABASE_URL: source });
    assertEquals(again.code, 1);
    assertEquals(again.stderr, `error: ${dir}/b.db already exists: choose another file or remove it`);

    // a server beat a moment ago on the target
    const h = await openDatabase(target);
    await beat(h.db);
    await h.close();
    const refused = await runCli(["db", "restore", `${dir}/b.db`], { DATABASE_URL: target });
    assertEquals(refused.code, 1);
    assertMatch(
      refused.stderr,
      /^error: The database .*target\.db is in use by a running server \(.*\): stop it first, or pass --force$/,
    );
    assertEquals(await count(target, "projects"), 1, "untouched");

    const forced = await runCli(["db", "restore", `${dir}/b.db`, "--force"], { DATABASE_URL: target });
    assertEquals(forced.code, 0, forced.stderr);
    assertEquals(await count(target, "projects"), 2, "the backup is in place");

    // a stale heartbeat (a crashed server) does not block
    const h2 = await openDatabase(target);
    await beat(h2.db, Date.now() - 10 * 60_000);
    await h2.close();
    const afterCrash = await runCli(["db", "restore", `${dir}/b.db`], { DATABASE_URL: target });
    assertEquals(afterCrash.code, 0, afterCrash.stderr);

    // not a database: refused before anything is overwritten
    await Deno.writeTextFile(`${dir}/junk.db`, "not a database at all, just text");
    const junk = await runCli(["db", "restore", `${dir}/junk.db`], { DATABASE_URL: target });
    assertEquals(junk.stderr, `error: ${dir}/junk.db is not a SQLite database file`);
    assertEquals(await count(target, "projects"), 2);
    const missing = await runCli(["db", "restore", `${dir}/nope.db`], { DATABASE_URL: target });
    assertEquals(missing.stderr, `error: No backup at ${dir}/nope.db`);

    // a libSQL server is backed up where it runs
    const remote = await runCli(["db", "backup", "--out", `${dir}/r.db`], {
      DATABASE_URL: "libsql://db.example",
    });
    assertEquals(remote.code, 1);
    assertMatch(remote.stderr, /^error: DATABASE_URL is a libSQL server: back it up where it runs/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("db restore: keeps the database it replaces beside it, and refuses one with more recent data unless --force", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-restore-" });
  try {
    const target = `file:${dir}/target.db`;
    const source = `file:${dir}/source.db`;
    // the backup is taken first; the target then goes on working (a project made, logged, later)
    const s = await testApp({ DATABASE_URL: source });
    await makeOne(s, 1);
    await s.close();
    const backup = await runCli(["db", "backup", "--out", `${dir}/b.db`], { DATABASE_URL: source });
    assertEquals(backup.code, 0, backup.stderr);
    await new Promise((r) => setTimeout(r, 5));
    const t = await testApp({ DATABASE_URL: target });
    await makeOne(t, 2);
    await t.close();
    const listing = async () => {
      const names: string[] = [];
      for await (const e of Deno.readDir(dir)) names.push(e.name);
      return names.filter((n) => /before-restore.*\.db$/.test(n)).sort();
    };

    const refused = await runCli(["db", "restore", `${dir}/b.db`], { DATABASE_URL: target });
    assertEquals([refused.code, refused.stdout], [1, ""]);
    assertMatch(
      refused.stderr,
      /^error: The database .*target\.db holds more recent data than .*b\.db \(its last activity \S+, the backup's \S+\): restoring would lose it; pass --force to restore anyway$/,
    );
    assertEquals(await count(target, "projects"), 2, "untouched");
    assertEquals(await listing(), [], "nothing copied for a refused restore");

    const forced = await runCli(["db", "restore", `${dir}/b.db`, "--force"], { DATABASE_URL: target });
    assertEquals(forced.code, 0, forced.stderr);
    const kept = await listing();
    assertEquals(kept.length, 1);
    assertMatch(kept[0], /^target\.before-restore-\d{8}-\d{6}\.db$/);
    assertMatch(forced.stdout, new RegExp(`; the database it replaced is kept as ${dir}/${kept[0]}$`));
    assertEquals(await count(target, "projects"), 1, "the backup is in place");
    assertEquals(await count(`file:${dir}/${kept[0]}`, "projects"), 2, "what it replaced is kept whole");
    // the kept copy is nobody's live database, and it is a backup that restores (no newer data now)
    const back = await runCli(["db", "restore", `${dir}/${kept[0]}`], { DATABASE_URL: target });
    assertEquals(back.code, 0, back.stderr);
    assertEquals(await count(target, "projects"), 2);
    assertEquals((await listing()).length, 2, `the second restore kept its own copy: ${await listing()}`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("cli --version names the version of deno.json and a commit", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${root}deno.json`));
  const r = await runCli(["--version"], { GIT_COMMIT: "" });
  assertEquals(r.code, 0, r.stderr);
  assertMatch(
    r.stdout,
    new RegExp(`^${config.version.replaceAll(".", "\\.")} \\(([0-9a-f]{7,40}|unknown)\\)$`),
  );
  // no git to ask (the image): the build argument GIT_COMMIT, else "unknown"
  const noGit = await runCli(["--version"], { GIT_COMMIT: "0a1b2c3d4e5f", PATH: "/nonexistent" });
  assertEquals(noGit.stdout, `${config.version} (0a1b2c3d4e5f)`);
  const none = await runCli(["--version"], { GIT_COMMIT: "", PATH: "/nonexistent" });
  assertEquals(none.stdout, `${config.version} (unknown)`);
});

/** `n` parent projects made through the API. */
async function makeOne(t: Awaited<ReturnType<typeof testApp>>, n: number) {
  for (let i = 0; i < n; i++) await makeParent(t);
}
