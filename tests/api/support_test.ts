/**
 * Support calls: identifier search (100 a page, every column, export of all matches), short codes
 * (the router's own table), the progress report image; roles, no token, malformed input.
 */
import { testApp } from "../helpers/app.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { back, enter, liveProject, router, uidOf } from "../helpers/router.ts";
import { parseCsv } from "../helpers/master.ts";
import { SHORT_CODES } from "../../server/domain/router/shortcodes.ts";
import { fillPlaceholders } from "../../server/domain/router/outcomes.ts";
import * as Supp from "../../shared/api/support.ts";
import { pathOf } from "../../shared/api/contract.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

async function withTraffic() {
  const t = await testApp();
  const s = await liveProject(t);
  const uids: string[] = [];
  for (let i = 1; i <= 5; i++) {
    const r = await enter(t, s.mapId, `resp-${i}`);
    uids.push(uidOf(r.location));
  }
  await back(t, uids[0], "c");
  await back(t, uids[1], "t");
  await router(t).idle();
  return { t, s, uids };
}

Deno.test(
  "identifiers: finds by supplier and user identifier, with every column; none for an empty box",
  opts,
  async () => {
    const { t, s, uids } = await withTraffic();
    try {
      const token = await t.tokenFor("SUBSCRIBER");
      const r = await t.api(Supp.searchIdentifiersCall, {
        token,
        body: { filter: { multiSearch: `resp-1\n\n${uids[1]}\nresp-1\nnobody` }, pageNo: 1, limit: 100 },
      });
      assertEquals(r.status, 200, r.text);
      const rows = r.json.result.data;
      assertEquals(rows.length, 2);
      assertEquals(r.json.result.metadata.total, 2);
      const byUid = new Map(rows.map((x: { uid: string }) => [x.uid, x]));
      const first = byUid.get(uids[0]) as Record<string, unknown>;
      assertEquals(first.sid, "resp-1");
      assertEquals(first.status, "complete");
      assertEquals(first.statusLabel, "Complete");
      assertEquals(first.projectCode, s.child.projectCode);
      assertEquals(first.projectName, s.child.projectName);
      assert(typeof first.supplierName === "string" && first.supplierName.length > 0);
      for (
        const k of [
          "createdAt",
          "updatedAt",
          "countryName",
          "countryCode",
          "ipAddress",
          "deviceType",
          "browser",
        ]
      ) {
        assert(k in first, `missing ${k}`);
      }
      assertEquals((byUid.get(uids[1]) as Record<string, unknown>).status, "terminate");

      const none = await t.api(Supp.searchIdentifiersCall, { token, body: { filter: {} } });
      assertEquals(none.status, 200);
      assertEquals(none.json.result.data.length, 0);

      // 100 a page at most
      const big = await t.api(Supp.searchIdentifiersCall, {
        token,
        body: { filter: { multiSearch: "resp-1" }, limit: 1000 },
      });
      assertEquals(big.json.result.metadata.limit, 100);

      // outcome filter
      const done = await t.api(Supp.searchIdentifiersCall, {
        token,
        body: { filter: { multiSearch: "resp-1\nresp-2\nresp-3", outcome: ["complete"] } },
      });
      assertEquals(done.json.result.data.map((x: { sid: string }) => x.sid), ["resp-1"]);
    } finally {
      await t.close();
    }
  },
);

Deno.test("identifiers: thousands at once; the export streams every match as CSV", opts, async () => {
  const { t, uids } = await withTraffic();
  try {
    const token = await t.tokenFor("MANAGER");
    const lines = [...Array.from({ length: 5000 }, (_, i) => `unknown-${i}`), "resp-3", "resp-4", uids[4]];
    const r = await t.api(Supp.searchIdentifiersCall, {
      token,
      body: { filter: { multiSearch: lines.join("\n") } },
    });
    assertEquals(r.status, 200, r.text);
    assertEquals(r.json.result.data.length, 3);

    const csv = await t.api(Supp.identifiersReportCall, {
      token,
      body: { identifierData: lines.join("\n") },
    });
    assertEquals(csv.status, 200, csv.text);
    assertMatch(csv.headers.get("content-type") ?? "", /text\/csv/);
    const rows = parseCsv(csv.text.replace(/^\uFEFF/, ""));
    assertEquals(rows[0], [
      "Project code",
      "Project name",
      "Supplier name",
      "Supplier identifier",
      "User identifier",
      "Start (UTC)",
      "End (UTC)",
      "Country",
      "IP address",
      "Device type",
      "Browser detail",
      "Status",
    ]);
    assertEquals(rows.slice(1).filter((x) => x.length > 1).length, 3);
    assertMatch(rows[1][5], /^\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d$/);

    // the grid's export: the same list body with ?format=csv
    const grid = await t.api(Supp.searchIdentifiersCall, {
      search: { format: "csv" },
      token,
      body: { filter: { multiSearch: "resp-3" } },
    });
    assertEquals(grid.status, 200);
    assertEquals(parseCsv(grid.text.replace(/^\uFEFF/, "")).filter((x) => x.length > 1).length, 2);
  } finally {
    await t.close();
  }
});

Deno.test("identifiers: roles, no token, malformed input", opts, async () => {
  const t = await testApp();
  try {
    const none = await t.api(Supp.searchIdentifiersCall, { body: {} });
    assertEquals(none.status, 401);
    const bde = await t.api(Supp.searchIdentifiersCall, {
      token: await t.tokenFor("BDE"),
      body: {},
    });
    assertEquals(bde.status, 403);
    const sup = await t.api(Supp.identifiersReportCall, {
      token: await t.tokenFor("SUPPLIER"),
      body: { identifierData: "x" },
    });
    assertEquals(sup.status, 403);
    const token = await t.tokenFor("ADMIN");
    for (
      const body of [
        { filter: { multiSearch: 42 } },
        { filter: { multiSearch: Array.from({ length: 10_001 }, (_, i) => `id${i}`).join("\n") } },
        { filter: { outcome: "complete" } },
        { pageNo: "x" },
      ]
    ) {
      const r = await t.api(Supp.searchIdentifiersCall, { token, bad: body });
      assertEquals(r.status, 400, JSON.stringify(body).slice(0, 80));
      assert(typeof r.json.message === "string");
    }
    const bad = await t.api(Supp.searchIdentifiersCall, { token, raw: "{not json" });
    assertEquals(bad.status, 400);
    const empty = await t.api(Supp.identifiersReportCall, {
      token,
      bad: { identifierData: " \n " },
    });
    assertEquals(empty.status, 400);
    assertEquals(empty.json.message, "Identifiers are required");
  } finally {
    await t.close();
  }
});

Deno.test("shortcodes: the router's table, each with its description; filter; roles", opts, async () => {
  const t = await testApp();
  try {
    const r = await t.api(Supp.shortCodesCall, { token: await t.tokenFor("SUBSCRIBER"), body: {} });
    assertEquals(r.status, 200, r.text);
    const names = r.json.result.map((c: { shortCodeName: string }) => c.shortCodeName);
    assertEquals(names, Object.keys(SHORT_CODES).map((n) => `[${n}]`));
    for (const name of ["[uid]", "[sid]", "[pid]", "[key]", "[status]"]) assert(names.includes(name), name);
    for (const c of r.json.result) assert(c.shortCodeDescription.length > 10);
    // every listed code is one the filler replaces
    const values = Object.fromEntries(Object.keys(SHORT_CODES).map((n) => [n, `v-${n}`]));
    const url = fillPlaceholders(names.join("&"), values);
    assertEquals(url, Object.keys(SHORT_CODES).map((n) => `v-${n}`).join("&"));

    const f = await t.api(Supp.shortCodesCall, {
      token: await t.tokenFor("ADMIN"),
      body: { filter: "idempotency" },
    });
    assertEquals(f.json.result.map((c: { shortCodeName: string }) => c.shortCodeName), ["[key]"]);

    assertEquals((await t.api(Supp.shortCodesCall, { body: {} })).status, 401);
    assertEquals(
      (await t.api(Supp.shortCodesCall, { token: await t.tokenFor("APIMANAGER"), body: {} })).status,
      403,
    );
    const bad = await t.api(Supp.shortCodesCall, {
      token: await t.tokenFor("ADMIN"),
      bad: { filter: 3 },
    });
    assertEquals(bad.status, 400);
  } finally {
    await t.close();
  }
});

Deno.test(
  "shortcodes: a supplier redirect and the client link are filled from the same table",
  opts,
  async () => {
    const { t, s, uids } = await withTraffic();
    try {
      // panelRedirects carry [sid]; the client link carries [uid]
      const r = await back(t, uids[2], "c");
      assertMatch(r.location, /resp-3/);
      assert(!r.location.includes("[sid]"));
      assertEquals(s.mapId.length, 24);
    } finally {
      await t.close();
    }
  },
);

function pngSize(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

Deno.test(
  "progress report: a PNG of sane size for a group and a child project; roles; unknown project",
  opts,
  async () => {
    const { t, s } = await withTraffic();
    try {
      for (const id of [s.parent._id, s.child._id]) {
        // the PNG's bytes are read raw (the test client reads an answer as text)
        const res = await t.app.request(`/api/v1${pathOf(Supp.progressReportCall, { projectId: id })}`, {
          headers: { authorization: `Bearer ${await t.tokenFor("BDE")}` },
        });
        assertEquals(res.status, 200);
        assertEquals(res.headers.get("content-type"), "image/png");
        assertMatch(res.headers.get("content-disposition") ?? "", /-progress-\d{4}-\d\d-\d\d\.png/);
        const bytes = new Uint8Array(await res.arrayBuffer());
        assertEquals([...bytes.slice(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
        const { width, height } = pngSize(bytes);
        assertEquals(width, 1000);
        assert(height > 500 && height < 2000, `height ${height}`);
        assert(bytes.length > 10_000 && bytes.length < 1_000_000, `size ${bytes.length}`);
      }
      assertEquals(
        (await t.api(Supp.progressReportCall, { params: { projectId: s.child._id } })).status,
        401,
      );
      const sup = await t.api(Supp.progressReportCall, {
        params: { projectId: s.child._id },
        token: await t.tokenFor("SUPPLIER"),
      });
      assertEquals(sup.status, 403);
      const unknown = await t.api(Supp.progressReportCall, {
        params: { projectId: "a".repeat(24) },
        token: await t.tokenFor("ADMIN"),
      });
      assertEquals(unknown.status, 404);
      assertEquals(unknown.json.message, "Project not found");
      // a malformed id in the path itself: spelled by hand
      const malformed = await t.call("GET", `/admin/project/progress/nope`, {
        token: await t.tokenFor("ADMIN"),
      });
      assertEquals(malformed.status, 404);
    } finally {
      await t.close();
    }
  },
);

Deno.test(
  "cli report progress: writes the project's PNG; an unknown code is a one-line error",
  opts,
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "samplex-progress-" });
    try {
      const env = { DATABASE_URL: `file:${dir}/samplex.db` };
      const t = await testApp(env);
      let code = "";
      try {
        code = (await liveProject(t)).parent.projectCode;
      } finally {
        await t.close();
      }
      const run = async (args: string[]) => {
        const out = await new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", "cli/main.ts", ...args],
          cwd: new URL("../..", import.meta.url).pathname,
          env: { NO_COLOR: "1", DENO_ENV: "test", LOG_LEVEL: "info", ...env },
          stdout: "piped",
          stderr: "piped",
        }).output();
        const dec = new TextDecoder();
        return {
          code: out.code,
          stdout: dec.decode(out.stdout).trim(),
          stderr: dec.decode(out.stderr).trim(),
        };
      };
      const file = `${dir}/progress.png`;
      const ok = await run(["report", "progress", code, "--out", file]);
      assertEquals(ok.code, 0, ok.stderr);
      assertMatch(ok.stdout, /^wrote .*progress\.png \(\d+ bytes\)$/);
      const bytes = await Deno.readFile(file);
      assertEquals([...bytes.slice(1, 4)], [0x50, 0x4e, 0x47]);
      assertEquals(pngSize(bytes).width, 1000);

      const bad = await run(["report", "progress", "NOPE-9", "--out", file]);
      assertEquals(bad.code, 1);
      assertEquals(bad.stderr, "error: no project with code NOPE-9");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
