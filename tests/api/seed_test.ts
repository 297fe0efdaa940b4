import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { DEMO_PASSWORD, seedDemo, seedIfEmpty } from "../../server/domain/seed/seed.ts";

Deno.test("demo data: master data through the domain, and a supplier login tied to a panel", async () => {
  const t = await testApp();
  try {
    const counts = await seedDemo(t.deps);
    assertEquals(counts, {
      users: 8,
      clients: 9,
      suppliers: 9,
      categories: 7,
      questions: 7,
      qualifications: 6,
      supplierRules: 4,
    });
    assertEquals(
      await seedIfEmpty({ ...t.deps, env: { ...t.deps.env, SEED: "demo" } }),
      null,
      "seeds only once",
    );

    const login = await t.call("POST", "/admin/login", {
      body: { email: "supplier@samplex.demo", password: DEMO_PASSWORD },
    });
    assertEquals(login.status, 200);
    assertEquals(login.json.result.admin.role, "SUPPLIER");
    const admin = (await t.call("POST", "/admin/login", {
      body: { email: "admin@samplex.demo", password: DEMO_PASSWORD },
    })).json.result.accessToken;
    const panel = await t.call("POST", `/admin/supplier/${login.json.result.admin.supplierId}`, {
      token: admin,
    });
    assertEquals(panel.json.result.supplierName, "Opinion Harbor");

    const clients =
      (await t.call("POST", "/admin/clients", { token: admin, body: { limit: 20 } })).json.result.data;
    assertEquals(clients.length, 9);
    assert(clients.every((c: { assignedToName: string }) => c.assignedToName === "Bruno Costa"));
    assert(
      new Set(clients.map((c: { countryId: string }) => c.countryId)).size >= 8,
      "clients across countries",
    );
    const apiClients = await t.call("POST", "/admin/clients/filter/all", {
      token: admin,
      body: { isApiIntegration: true },
    });
    assertEquals(apiClients.json.result.length, 3);

    const suppliers =
      (await t.call("POST", "/admin/suppliers", { token: admin, body: { limit: 20 } })).json.result.data;
    assertEquals(new Set(suppliers.map((s: { supplierType: number }) => s.supplierType)), new Set([1, 2]));
    const one = (await t.call("POST", `/admin/supplier/${suppliers[0]._id}`, { token: admin })).json.result;
    assertMatch(one.redirectComplete, /^https:\/\/.+\/complete\?sid=\[sid\]$/);

    const questions = (await t.call("GET", "/admin/questions/temp", { token: admin })).json.result;
    assertEquals(questions[0].title, "What is your age?");
    assertEquals(
      questions.find((q: { questionType: string }) => q.questionType === "MAP").questionOption.length,
      4,
    );
    const quals = (await t.call("GET", "/admin/qualifications/all", { token: admin })).json.result;
    assert(quals.every((q: { qualificationOptions: unknown[] }) => q.qualificationOptions.length >= 2));
    assertEquals(
      (await t.call("POST", "/admin/supplier/rules/data", { token: admin, body: {} })).json.result.metadata
        .total,
      4,
    );
    assertEquals(
      (await t.call("POST", "/admin/categories", { token: admin, body: {} })).json.result.metadata.total,
      7,
    );
    const mail = await t.call("POST", "/admin/email/supplier/bulk/send", {
      token: admin,
      body: { emailBody: "Hi" },
    });
    assertEquals(mail.json.result.queued, 7, "active suppliers with notifications on");
  } finally {
    await t.close();
  }
});
