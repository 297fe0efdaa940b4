/**
 * `deno task cli report <kind> [--from --to --client --supplier] --out file.csv` as a user runs it: a
 * subprocess against a temporary database file. The file is the API's CSV of the same filter, byte
 * for byte; each bad input exits 1 with a one-line reason and writes nothing.
 */
import { runCli } from "../helpers/cli.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { reportDataset, REPORTS_NOW } from "../helpers/reports.ts";
import { REPORT_KINDS } from "../../shared/api/reports.ts";
import * as Rep from "../../shared/api/reports.ts";
import type { AnyContract } from "../../shared/api/contract.ts";

const BOM = "\uFEFF";

Deno.test("cli report <kind>: writes the API's CSV of the same filter for every kind; bad input exits 1 with one line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-cli-report-" });
  const env = { DATABASE_URL: `file:${dir}/samplex.db` };
  try {
    // the dataset, and what the API answers for the filters the CLI is given
    const t = await testApp(env, { now: () => REPORTS_NOW });
    const expected: Record<string, string> = {};
    let s2Code = "", clientCode = "";
    try {
      const { s2, p1 } = await reportDataset(t);
      s2Code = (await t.deps.db.selectFrom("suppliers").select("supplierShortCode").where("id", "=", s2._id)
        .executeTakeFirstOrThrow()).supplierShortCode;
      clientCode =
        (await t.deps.db.selectFrom("clients").select("clientCode").where("id", "=", p1.child.clientId)
          .executeTakeFirstOrThrow()).clientCode;
      const token = await t.tokenFor("ADMIN");
      const filter = { from: "2026-11-01", to: "2026-11-30" };
      for (const kind of REPORT_KINDS) {
        const call: AnyContract = kind === "supplier" ? Rep.supplierReportData : Rep.projectReportData;
        const r = await t.api(call, { search: { format: "csv" }, token, body: { filter, type: kind } });
        assertEquals(r.status, 200, r.text);
        expected[kind] = r.text;
      }
      const bySupplier = await t.api(Rep.supplierReportData, {
        search: { format: "csv" },
        token,
        body: { filter: { supplierId: s2._id } },
      });
      expected.s2 = bySupplier.text;
      const byClient = await t.api(Rep.projectReportData, {
        search: { format: "csv" },
        token,
        body: { type: "client", filter: { clientId: p1.child.clientId, to: "2026-11-18" } },
      });
      expected.client1 = byClient.text;
    } finally {
      await t.close();
    }
    assert(expected.client.split("\r\n").length === 4, "header, two rows and the last line end");
    assert(expected.s2.split("\r\n").length === 3, "header, S2's row");

    for (const kind of REPORT_KINDS) {
      const out = `${dir}/${kind}.csv`;
      const r = await runCli(
        ["report", kind, "--from", "2026-11-01", "--to", "2026-11-30", "--out", out],
        env,
      );
      assertEquals(r.code, 0, r.stderr);
      const lines = expected[kind].split("\r\n").length - 2;
      assertEquals(r.stdout, `wrote ${out} (${lines} rows)`);
      const text = await Deno.readTextFile(out);
      assertEquals(text, BOM + expected[kind], `${kind}: the CLI's CSV is the API's`);
    }
    // a supplier and a client by their codes
    let r = await runCli(["report", "supplier", "--supplier", s2Code, "--out", `${dir}/s2.csv`], env);
    assertEquals(r.code, 0, r.stderr);
    assertEquals(await Deno.readTextFile(`${dir}/s2.csv`), BOM + expected.s2);
    r = await runCli(
      ["report", "client", "--client", clientCode, "--to", "2026-11-18", "--out", `${dir}/c.csv`],
      env,
    );
    assertEquals(r.code, 0, r.stderr);
    assertEquals(await Deno.readTextFile(`${dir}/c.csv`), BOM + expected.client1);

    // bad input: one line, exit 1, no file
    const fails: [string[], string | RegExp][] = [
      [["report", "client", "--from", "2026-13-01"], "error: --from: from must be a date (yyyy-MM-dd)"],
      [
        ["report", "client", "--from", "2026-11-02", "--to", "2026-11-01"],
        "error: --to: to must not be before from",
      ],
      [["report", "client", "--client", "NOPE"], "error: --client: no client with id or code NOPE"],
      [["report", "supplier", "--supplier", "NOPE"], "error: --supplier: no supplier with id or code NOPE"],
      [["report", "nonsense"], /error|unknown command/i],
    ];
    for (const [args, reason] of fails) {
      const out = `${dir}/bad.csv`;
      const f = await runCli([...args, "--out", out], env);
      assert(f.code !== 0, `${args.join(" ")}: expected a non-zero exit`);
      assertEquals(f.stdout, "");
      if (typeof reason === "string") {
        assertEquals(f.stderr, reason);
      } else {
        assertMatch(f.stderr, reason);
      }
      assert(!(await Deno.stat(out).catch(() => null)), `${args.join(" ")}: no file written`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
