/** `deno task cli invoice pdf <code> --out file.pdf` as a user runs it: a subprocess on a database file. */
import { runCli } from "../helpers/cli.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { day, makeClient, readyProject } from "../helpers/accounts.ts";
import * as Acc from "../../shared/api/accounts.ts";

Deno.test("cli invoice pdf: writes the invoice's PDF, whose text holds its code, client, lines and total; an unknown code exits 1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "samplex-cli-invoice-" });
  const env = { DATABASE_URL: `file:${dir}/samplex.db` };
  try {
    const t = await testApp(env);
    let code = "";
    let project = { projectCode: "", projectName: "" };
    try {
      const token = await t.tokenFor("ACCOUNTANT");
      const client = await makeClient(t, { clientName: "Orbit Insights", company: "Orbit Insights Ltd" });
      const p = await readyProject(t, { clientId: client._id, complete: 30, cpi: 4 });
      project = p;
      const r = await t.api(Acc.addInvoiceCall, {
        token,
        body: {
          clientId: client._id,
          netTerms: 0,
          currentDate: day(),
          dueDate: day(),
          projects: [{
            projectId: p._id,
            projectCode: p.projectCode,
            projectName: p.projectName,
            complete: 30,
            cpi: 4,
            total: 120,
          }],
        },
      });
      assertEquals(r.status, 200, r.text);
      code = r.json.result.invoice.invoiceCode;
    } finally {
      await t.close();
    }
    const out = `${dir}/out.pdf`;
    const ok = await runCli(["invoice", "pdf", code.toLowerCase(), "--out", out], env);
    assertEquals(ok.code, 0, ok.stderr);
    assertMatch(
      ok.stdout,
      new RegExp(`^Wrote Invoice#${code} \\(\\$120\\.00\\) to .*out\\.pdf \\(\\d+ bytes\\)$`),
    );
    const text = new TextDecoder().decode(
      (await new Deno.Command("pdftotext", { args: ["-layout", out, "-"] }).output()).stdout,
    );
    for (const s of [code, "Orbit Insights Ltd", project.projectCode, project.projectName, "$120.00"]) {
      assert(text.includes(s), `PDF text lacks ${s}:\n${text}`);
    }
    const unknown = await runCli(["invoice", "pdf", "INV99999", "--out", `${dir}/x.pdf`], env);
    assertEquals([unknown.code, unknown.stdout, unknown.stderr], [
      1,
      "",
      "error: no invoice has the code INV99999",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
