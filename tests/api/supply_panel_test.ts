/**
 * A panel that is not us (issue 23, item 6). Samplex listens on a real socket; the panel knows only
 * its base URL, one API key and the supply API's OpenAPI document, which it reads to find every
 * call (by operationId: path, method). It lists the surveys, starts one from inventory, sends its
 * members with the answers it knows through the real router over HTTP (playing the client's survey
 * for the returns), receives the callbacks on its own local HTTP server and verifies each signature
 * by the documented recipe (its own HMAC, not our code), pulls its transactions and stats, and checks
 * that callbacks, transactions, stats and the staff's Supplier Stats agree exactly. After staff
 * reconcile the first survey rejecting two of its completes, exactly one reversal callback arrives
 * per changed session, and the books follow.
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { makeSupplier } from "../helpers/fixtures.ts";
import { liveProject, PANEL, router } from "../helpers/router.ts";
import { closeForReconcile } from "../helpers/reconcile.ts";
import * as Lib from "../../shared/api/library.ts";
import * as Parts from "../../shared/api/project-parts.ts";
import * as K from "../../shared/api/supplier-api-keys.ts";
import * as Rec from "../../shared/api/reconcile.ts";
import { supplierStatsCall } from "../../shared/api/supplier-maps.ts";

const SECRET = "panel-signing-secret-000000000001";
const PANEL_HOME = "https://home.panel.example";

// ---------------------------------------------------------------- the panel's own code

type Op = { method: string; path: string; requestBody?: unknown };
type Doc = { servers: { url: string }[]; paths: Record<string, Record<string, Op>> };

/** The panel's client: every call found in the OpenAPI document by its operationId. */
class Panel {
  #doc!: Doc;
  constructor(private readonly base: string, private readonly key: string) {}

  async load() {
    // the reference is public: a panel reads it before it calls anything
    const res = await fetch(`${this.base}/supply/v1/openapi.json`);
    assertEquals(res.status, 200);
    this.#doc = await res.json();
  }

  #find(operationId: string): { method: string; path: string } {
    for (const [path, ops] of Object.entries(this.#doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if ((op as unknown as { operationId: string }).operationId === operationId) {
          return { method: method.toUpperCase(), path };
        }
      }
    }
    throw new Error(`the reference has no ${operationId}`);
  }

  async call(
    operationId: string,
    o: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown; accept?: string } =
      {},
  ) {
    const { method, path } = this.#find(operationId);
    const filled = path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(o.params?.[n] ?? ""));
    const qs = o.query ? `?${new URLSearchParams(o.query)}` : "";
    const res = await fetch(`${this.base}${this.#doc.servers[0].url}${filled}${qs}`, {
      method,
      headers: {
        "X-Api-Key": this.key,
        ...(o.accept ? { accept: o.accept } : {}),
        ...(o.body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: o.body !== undefined ? JSON.stringify(o.body) : undefined,
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${operationId} answered ${res.status}: ${text}`);
    return o.accept === "text/csv" ? text : JSON.parse(text).result;
  }

  /** Every transaction, page after page until `hasMore` is false. */
  async transactions(): Promise<Tx[]> {
    const out: Tx[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const page = await this.call("supplyTransactionsCall", {
        query: { limit: "3", ...(cursor ? { cursor } : {}) },
      });
      out.push(...page.data);
      cursor = page.nextCursor;
      if (!page.hasMore) return out;
    }
    throw new Error("more than 100 pages");
  }
}

type Tx = {
  id: string;
  memberId: string;
  surveyId: string;
  outcome: string;
  earned: number;
  reconcile: string | null;
};
type Callback = { method: string; url: URL; headers: Headers; body: string };

/** HMAC-SHA256 hex: the documented signature, written from the document, not imported. */
async function hmacHex(secret: string, text: string) {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey(
    "raw",
    enc.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    [
      "sign",
    ],
  );
  const sig = await crypto.subtle.sign("HMAC", key, enc.encode(text));
  return Array.from(new Uint8Array(sig), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function verify(cb: Callback): Promise<string | null> {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(cb.headers.get("x-samplex-signature") ?? "");
  if (!m) return "no signature";
  if (Math.abs(Date.now() / 1000 - Number(m[1])) > 300) return "stale timestamp";
  const bodyHash = Array.from(
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(cb.body))),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  const canonical = `${m[1]}\n${cb.method}\n${cb.url.pathname}${cb.url.search}\n${
    cb.headers.get("idempotency-key")
  }\n${bodyHash}`;
  return (await hmacHex(SECRET, canonical)) === m[2] ? null : "signature does not match";
}

/** The panel's callback receiver on 127.0.0.1. */
function receiver() {
  const got: Callback[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    got.push({ method: req.method, url: new URL(req.url), headers: req.headers, body: await req.text() });
    return new Response("ok");
  });
  return { got, base: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

// ---------------------------------------------------------------- the exchange (staff side)

async function settle(t: TestApp, done: () => boolean) {
  for (let i = 0; i < 300 && !done(); i++) {
    await router(t).idle();
    await new Promise((r) => setTimeout(r, 10));
  }
  // anything more would arrive now
  for (let i = 0; i < 20; i++) {
    await router(t).idle();
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The outcome event each final outcome calls back (the redirect the member is sent home by). */
const EVENT: Record<string, string> = {
  complete: "complete",
  terminate: "terminate",
  preScreenTerminate: "terminate",
  overQuota: "overquota",
  qualityTerm: "quality",
};

Deno.test("a panel that is not us: surveys, members with known answers, signed callbacks, transactions and stats agree with the staff's figures, through a reconcile", async () => {
  const cb = receiver();
  const t = await testApp({ OUTBOUND_ALLOW: "127.0.0.1" }, { router: { hookRetryDelaysMs: [0] } });
  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req, info) => t.app.fetch(req, { remoteAddr: info.remoteAddr }),
  );
  const base = `http://127.0.0.1:${http.addr.port}`;
  try {
    // staff: an age question in the library, a supplier whose callbacks go to the panel
    const age = await t.ok(Lib.addTempQuestion, {
      as: "SUPERADMIN",
      body: {
        questionTitle: { en: "How old are you?" },
        questionType: "RADIO",
        questionOption: [{ title: "18-34" }, { title: "35-54" }, { title: "55+" }],
      },
    }) as { _id: string; questionOption: { _id: string; title: string }[] };
    const [young, middle, old] = age.questionOption.map((o) => o._id);
    const url = (e: string) => `${cb.base}/hooks/${e}?member=[sid]&session=[uid]&status=[status]`;
    const supplier = await makeSupplier(t, {
      hashKey: SECRET,
      redirectTerminate: `${PANEL_HOME}/t?sid=[sid]`,
      redirectQuotaFull: `${PANEL_HOME}/q?sid=[sid]`,
      redirectQualityTerm: `${PANEL_HOME}/f?sid=[sid]`,
      redirectSurveyClose: `${PANEL_HOME}/x?sid=[sid]`,
      supplierApprovedHook: url("complete"),
      callbackTerminate: url("terminate"),
      callbackOverQuota: url("overquota"),
      callbackQualityTerm: url("quality"),
      callbackReconcile: `${cb.base}/hooks/reconcile?session=[uid]&from=[oldStatus]&to=[newStatus]&cpi=[cpi]`,
    }) as { _id: string };
    // survey A: mapped to the panel, pre-screens age and refuses 55+; survey B: inventory
    const a = await liveProject(t, {
      supplierId: supplier._id,
      project: { isPreScreen: true },
      map: { isPreScreen: true, supplierCPI: 1.4 },
    });
    const copy = await t.ok(Parts.addProjectQuestion, {
      as: "SUPERADMIN",
      body: { projectId: a.child._id, questionId: age._id },
    }) as { _id: string; questionOption: { _id: string; title: string }[] };
    await t.ok(Parts.updateProjectQuestion, {
      as: "SUPERADMIN",
      params: { questionId: copy._id },
      body: {
        projectId: a.child._id,
        questionTitle: { en: "How old are you?" },
        questionType: "RADIO",
        questionOption: copy.questionOption.map((o) => ({
          _id: o._id,
          title: o.title,
          formvalidate: o._id !== old,
        })),
      },
    });
    const b = await liveProject(t);
    const key = await t.ok(K.createSupplierApiKeyCall, {
      as: "ADMIN",
      params: { id: supplier._id },
      body: { name: "Panel integration" },
    });

    // ---- the panel, from here on: the document, the key, HTTP
    const panel = new Panel(base, key.key);
    await panel.load();
    const surveys = (await panel.call("supplySurveysCall")).data as {
      id: string;
      started: boolean;
      entryLink: string | null;
      cpi: number;
      qualifications: { questionId: string; answerIds: string[] }[];
    }[];
    const sa = surveys.find((s) => s.id === a.child._id)!;
    const sb = surveys.find((s) => s.id === b.child._id)!;
    assert(sa?.started && sa.entryLink, "survey A is mapped: it has its entry link");
    assert(sb && !sb.started && sb.entryLink === null, "survey B is inventory");
    assertEquals(sa.cpi, 1.4);
    const qual = sa.qualifications.find((q) => q.questionId === age._id)!;
    assertEquals([...qual.answerIds].sort(), [young, middle].sort(), "A takes 18-34 and 35-54");
    const started = await panel.call("supplySurveyStartCall", {
      params: { id: sb.id },
      body: {
        redirectComplete: `${PANEL_HOME}/c?sid=[sid]`,
        redirectTerminate: `${PANEL_HOME}/t?sid=[sid]`,
        redirectQuotaFull: `${PANEL_HOME}/q?sid=[sid]`,
        redirectQualityTerm: `${PANEL_HOME}/f?sid=[sid]`,
        redirectSurveyClose: `${PANEL_HOME}/x?sid=[sid]`,
      },
    });
    assert(started.entryLink, "B started: its entry link");

    // members: known ages on the link; the client's survey (played here) answers each
    const plan: [string, string, string, "c" | "t" | "q" | "f" | null][] = [
      ["m1", sa.entryLink!, young, "c"],
      ["m2", sa.entryLink!, middle, "c"],
      ["m3", sa.entryLink!, young, "c"],
      ["m4", sa.entryLink!, middle, "t"],
      ["m5", sa.entryLink!, young, "q"],
      ["m6", sa.entryLink!, old, null], // a known answer that fails: terminated at entry, nothing asked
      ["m7", started.entryLink, young, "c"],
      ["m8", started.entryLink, middle, "f"],
    ];
    const sessionOf = new Map<string, string>();
    for (const [sid, link, answer, end] of plan) {
      const entry = link.replace("[sid]", sid) + `&q_${age._id}=${answer}`;
      const res = await fetch(entry.replace(/^https?:\/\/[^/]+/, base), { redirect: "manual" });
      await res.body?.cancel();
      const location = res.headers.get("location") ?? "";
      if (end === null) {
        assertEquals(
          location,
          `${PANEL}/terminate?sid=${sid}`,
          "refused at once by the known answer (A's map redirects)",
        );
        continue;
      }
      const uid = new URL(location).searchParams.get("uid");
      assert(uid && location.startsWith("https://client.example/"), `${sid} reached the client: ${location}`);
      sessionOf.set(sid, uid);
      const ret = await fetch(`${base}/survey/end?status=${end}&uid=${uid}`, { redirect: "manual" });
      await ret.body?.cancel();
    }

    // callbacks: one per session that went home, each signed as documented
    await settle(t, () => cb.got.length >= plan.length);
    assertEquals(cb.got.length, plan.length);
    for (const c of cb.got) assertEquals(await verify(c), null, c.url.href);
    const tampered = { ...cb.got[0], body: cb.got[0].body + " " };
    assert((await verify(tampered)) !== null, "a changed request fails the check");

    // transactions and callbacks agree, session by session
    const txs = await panel.transactions();
    assertEquals(txs.map((x) => x.memberId).sort(), plan.map(([sid]) => sid).sort());
    const byEvent = cb.got.map((c) =>
      `${c.url.searchParams.get("session")} ${c.url.pathname.split("/").pop()}`
    );
    assertEquals(txs.map((x) => `${x.id} ${EVENT[x.outcome]}`).sort(), byEvent.sort());
    for (const c of cb.got) {
      assertEquals(
        c.url.searchParams.get("member"),
        txs.find((x) => x.id === c.url.searchParams.get("session"))?.memberId,
      );
    }
    for (const [sid, uid] of sessionOf) assertEquals(txs.find((x) => x.memberId === sid)?.id, uid);
    const earned = (xs: Tx[]) => Math.round(xs.reduce((n, x) => n + x.earned, 0) * 100) / 100;
    const m7 = txs.find((x) => x.memberId === "m7")!;
    assert(m7.earned > 0, "B's complete earns B's CPI");
    assertEquals(earned(txs), Math.round((1.4 * 3 + m7.earned) * 100) / 100);

    // stats and the staff's Supplier Stats say the same per survey
    const today = new Date().toISOString().slice(0, 10);
    const stats = await panel.call("supplyStatsCall", { query: { from: today, to: today, group: "survey" } });
    for (const survey of [a.child._id, b.child._id]) {
      const mine = txs.filter((x) => x.surveyId === survey);
      const count = (...o: string[]) => mine.filter((x) => o.includes(x.outcome)).length;
      const row = stats.rows.find((r: { surveyId: string }) => r.surveyId === survey);
      assertEquals(
        [row.entries, row.completes, row.terminates, row.overQuota, row.quality],
        [
          mine.length,
          count("complete"),
          count("terminate", "preScreenTerminate"),
          count("overQuota"),
          count("qualityTerm"),
        ],
        `stats of ${survey}`,
      );
      const staff = (await t.ok(supplierStatsCall, { as: "ADMIN", params: { projectId: survey } }))
        .find((s) => s.supplierId === supplier._id)!;
      // the staff's dialog shows the client's terminates (the pre-screen's are a figure of their own)
      assertEquals(
        [
          staff.clicked,
          staff.complete,
          staff.terminate + count("preScreenTerminate"),
          staff.overQuota,
          staff.qualityTerm,
        ],
        [row.entries, row.completes, row.terminates, row.overQuota, row.quality],
        `the staff's Supplier Stats of ${survey}`,
      );
      assertEquals(staff.terminate, count("terminate"));
    }
    assertEquals(stats.totals.earnings, earned(txs));

    // staff reconcile A: two of its three completes rejected -> one reversal callback each
    await closeForReconcile(t, a);
    const rejected = [sessionOf.get("m1")!, sessionOf.get("m2")!];
    const upload = await t.api(Rec.reconcileUpload, {
      params: { id: a.parent._id },
      as: "SUPERADMIN",
      body: { type: 2, csv: rejected.join("\n") + "\n" },
    });
    assertEquals(upload.status, 200, upload.text);
    const before = cb.got.length;
    await settle(t, () => cb.got.length >= before + 2);
    const reversals = cb.got.slice(before);
    assertEquals(reversals.length, 2, "exactly one per changed session");
    for (const c of reversals) {
      assertEquals(await verify(c), null);
      assertEquals(c.headers.get("x-samplex-event"), "reconcile");
      assertEquals([
        c.url.searchParams.get("from"),
        c.url.searchParams.get("to"),
        c.url.searchParams.get("cpi"),
      ], [
        "complete",
        "rejected",
        "1.4",
      ]);
    }
    assertEquals(reversals.map((c) => c.url.searchParams.get("session")).sort(), [...rejected].sort());

    // the books follow: rejected completes earn nothing, the stats count them
    const after = await panel.transactions();
    for (const uid of rejected) {
      const x = after.find((r) => r.id === uid)!;
      assertEquals([x.outcome, x.reconcile, x.earned], ["complete", "rejected", 0]);
    }
    assertEquals(after.find((x) => x.memberId === "m3")!.reconcile, "pending");
    const statsAfter = await panel.call("supplyStatsCall", {
      query: { from: today, to: today, group: "survey" },
    });
    const rowA = statsAfter.rows.find((r: { surveyId: string }) => r.surveyId === a.child._id);
    assertEquals(rowA.rejected, 2);
  } finally {
    await http.shutdown();
    await cb.close();
    await t.close();
  }
});
