/** `import list` and `import add` as a user runs them: a subprocess, a temporary database, a provider's stand-in. */
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { runCli } from "../helpers/cli.ts";
import { testApp } from "../helpers/app.ts";
import { makeClient } from "../helpers/fixtures.ts";
import { startSandbox } from "../helpers/providers.ts";
import { SANDBOX_KEY } from "../../server/providers/sandbox/index.ts";

Deno.test("cli import list / add against a provider's stand-in; one-line errors", async () => {
  const sb = await startSandbox();
  const dir = await Deno.makeTempDir({ prefix: "samplex-cli-import-" });
  try {
    const env = {
      DATABASE_URL: `file:${dir}/samplex.db`,
      PROVIDER_PRECISION_URL: `${sb.base}/precision`,
      PROVIDER_PRECISION_KEY: SANDBOX_KEY,
    };
    const t = await testApp(env);
    let clientId: string;
    try {
      clientId = (await makeClient(t))._id;
      await t.userWith("SUPERADMIN");
    } finally {
      await t.close();
    }
    const list = await runCli(["import", "list", "precision", "--country", "gb"], env);
    assertEquals(list.code, 0, list.stderr);
    const lines = list.stdout.split("\n");
    assertMatch(lines[0], /^ID\s+COUNTRY\s+CPI\s+LOI\s+IR\s+REMAINING\s+END\s+TITLE$/);
    const gb = sb.states.precision.offers.filter((o) => o.country === "GB");
    assertEquals(lines.length - 1, gb.length);
    assert(lines.slice(1).every((l) => / GB /.test(l)));

    const add = await runCli(["import", "add", "precision", gb[0].id, "--client", clientId], env);
    assertEquals(add.code, 0, add.stderr);
    assertMatch(add.stdout, /^created project \S+ \(group \S+\): \d+ quotas, \d+ questions$/);
    const again = await runCli(["import", "add", "precision", gb[0].id, "--client", clientId], env);
    assertEquals(again.code, 1);
    assertMatch(
      again.stderr,
      new RegExp(`^error: Precision survey ${gb[0].id} is already imported as project \\S+$`),
    );

    // a client that does not exist is named as unknown, before the provider is asked
    for (const id of ["nosuchclient", "65f000000000000000000099"]) {
      const noClient = await runCli(["import", "add", "precision", gb[1].id, "--client", id], env);
      assertEquals([noClient.code, noClient.stdout], [1, ""]);
      assertEquals(noClient.stderr, `error: --client: no live client has the id ${id}`);
    }

    const off = await runCli(["import", "list", "logit"], env);
    assertEquals([off.code, off.stdout], [1, ""]);
    assertEquals(off.stderr, "error: Logit is not configured: set PROVIDER_LOGIT_URL and PROVIDER_LOGIT_KEY");
    const unknown = await runCli(["import", "list", "acme"], env);
    assertEquals(
      unknown.stderr,
      'error: unknown provider "acme": one of precision, logit, toluna, circle, mrkt',
    );
    sb.states.precision.mode = "down";
    const down = await runCli(["import", "list", "precision"], { ...env });
    assertEquals(down.code, 1);
    assertMatch(
      down.stderr,
      /^error: Precision is unavailable \(HTTP 503: Maintenance in progress \(service_unavailable\)\)/,
    );
    assertEquals(down.stderr.split("\n").length, 1);
  } finally {
    await sb.close();
    await Deno.remove(dir, { recursive: true });
  }
});
