/** An imported offer's project taken live, and respondents answering its pre-screen (tests). */
import { assert, assertEquals } from "./assert.ts";
import { testApp } from "./app.ts";
import { makeClient, makeSupplier } from "./fixtures.ts";
import { startSandbox } from "./providers.ts";
import { CLIENT_URL, enter, panelRedirects } from "./router.ts";
import { PROJECT_STATUS } from "../../shared/status.ts";
import { updateProjectCall } from "../../shared/api/projects.ts";
import { saveSupplierMapCall } from "../../shared/api/supplier-maps.ts";

/** The app with every provider's stand-in, an API manager's token and a client. */
export async function importSetup() {
  const sb = await startSandbox();
  const t = await testApp({}, { providers: sb.registry() });
  const token = await t.tokenFor("APIMANAGER");
  const client = await makeClient(t);
  return {
    sb,
    t,
    token,
    client,
    async close() {
      await t.close();
      await sb.close();
    },
  };
}

export type ImportSetup = Awaited<ReturnType<typeof importSetup>>;

/** Makes the imported child Live with a client link and a boarded supplier map. */
export async function goLive(s: ImportSetup, projectId: string) {
  const u = await s.t.api(updateProjectCall, {
    params: { id: projectId },
    as: "SUPERADMIN",
    body: {
      projectStatus: PROJECT_STATUS.LIVE,
      singleLinkUrl: CLIENT_URL,
      isDynamicThanksUrl: false,
      isPreScreen: true,
    },
  });
  assertEquals(u.status, 200, u.text);
  const supplier = await makeSupplier(s.t);
  const m = await s.t.api(saveSupplierMapCall, {
    as: "SUPERADMIN",
    body: { projectId, supplierId: supplier._id, supplierCPI: 1, isPreScreen: true, ...panelRedirects },
  });
  assertEquals(m.status, 200, m.text);
  return m.result._id;
}

/** A respondent answering the imported pre-screen: by question name, the answer text (else the first qualifying one). */
export function respondent(s: ImportSetup, projectId: string, mapId: string) {
  return async (sid: string, answers: Record<string, string>) => {
    const questions = await s.t.deps.db.selectFrom("questions").selectAll().where("projectId", "=", projectId)
      .where("isDeleted", "=", 0).execute();
    const page = await enter(s.t, mapId, sid);
    assertEquals(page.status, 302, page.text);
    assert(page.location.startsWith("/survey/"), `${sid}: the pre-screen page, not ${page.location}`);
    const form = new URLSearchParams();
    for (const q of questions) {
      const name = JSON.parse(q.questionTitle).en as string;
      const opts = JSON.parse(q.questionOption) as { _id: string; title: string; formvalidate: boolean }[];
      const pick = answers[name] !== undefined
        ? opts.find((o) => o.title === answers[name])
        : opts.find((o) => o.formvalidate);
      assert(pick, `${sid}: no option "${answers[name]}" in ${name}: ${opts.map((o) => o.title)}`);
      form.set(`q_${q.id}`, pick._id);
    }
    const res = await s.t.app.request(page.location, { method: "POST", body: form });
    if (!res.headers.get("location")) throw new Error(`${res.status} ${await res.text()}`);
    return res.headers.get("location")!;
  };
}
