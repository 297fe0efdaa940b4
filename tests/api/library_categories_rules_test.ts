import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectCallGuarded, testApp } from "../helpers/app.ts";
import { auditOf, created, parseCsv } from "../helpers/master.ts";
import { MSG } from "../../shared/messages.ts";
import * as Lib from "../../shared/api/library.ts";

Deno.test("categories: a manager adds, lists, edits, switches and deletes categories; each change is logged", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("MANAGER");
    const add = await t.api(Lib.addCategory, {
      token,
      body: { categoryTitle: "  Healthcare ", categoryDesc: " Patients and HCPs " },
    });
    assertEquals(add.status, 200, add.text);
    assertEquals(add.json.message, "Category added successfully");
    const c = add.json.result;
    assertEquals([c.categoryTitle, c.categoryDesc, c.isActive], ["Healthcare", "Patients and HCPs", true]);
    assertEquals((await t.api(Lib.getCategoryCall, { params: { id: c._id }, token })).json.result, c);

    const upd = await t.api(Lib.updateCategoryCall, {
      params: { id: c._id },
      token,
      body: { categoryTitle: "Healthcare & Pharma", categoryDesc: "Patients, caregivers and HCPs" },
    });
    assertEquals([upd.status, upd.json.message, upd.json.result.categoryTitle], [
      200,
      "Category updated successfully",
      "Healthcare & Pharma",
    ]);
    const off = await t.api(Lib.updateCategoryCall, {
      params: { id: c._id },
      token,
      body: { isActive: false },
    });
    assertEquals([off.json.message, off.json.result.isActive], [
      "Category status updated successfully",
      false,
    ]);
    // inactive categories leave the picker but stay in the grid
    const staff = await t.tokenFor("SUBSCRIBER");
    assertEquals((await t.api(Lib.categoryOptionsCall, { token: staff })).json.result, []);
    assertEquals(
      (await t.api(Lib.listCategories, { token, body: {} })).json.result.metadata.total,
      1,
    );

    const del = await t.api(Lib.updateCategoryCall, {
      params: { id: c._id },
      token,
      body: { isDeleted: true },
    });
    assertEquals([del.status, del.json.message], [200, "Category deleted successfully"]);
    assertEquals(
      (await t.api(Lib.listCategories, { token, body: {} })).json.result.metadata.total,
      0,
    );
    assertEquals((await t.api(Lib.getCategoryCall, { params: { id: c._id }, token })).status, 404);
    assertEquals((await auditOf(t, c._id)).map((l) => [l.module, l.activity]), [
      ["Categories", "Created category Healthcare"],
      [
        "Categories",
        "Updated category Healthcare & Pharma: Title: Healthcare -> Healthcare & Pharma; Description: changed",
      ],
      ["Categories", "Deactivated category Healthcare & Pharma"],
      ["Categories", "Deleted category Healthcare & Pharma"],
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("categories: the spec's messages for a missing title or description, never a 500", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const r = await t.api(Lib.addCategory, { token, bad: {} });
    assertEquals(r.status, 400);
    assertEquals(r.json.errors, [
      { path: "categoryTitle", message: "Category title  is required" },
      { path: "categoryDesc", message: "Category Description  is required" },
    ]);
    const blank = await t.api(Lib.addCategory, {
      token,
      bad: { categoryTitle: "  ", categoryDesc: 3 },
    });
    assertEquals(blank.json.errors, [
      { path: "categoryTitle", message: "Category title  is required" },
      { path: "categoryDesc", message: "Category Description  is required" },
    ]);
    assertEquals((await t.api(Lib.addCategory, { token, raw: "nope" })).status, 400);
    const c = await created(t, token, Lib.addCategory, { categoryTitle: "Auto", categoryDesc: "Cars" });
    const put = await t.api(Lib.updateCategoryCall, {
      params: { id: c._id },
      token,
      bad: { categoryTitle: "Auto" },
    });
    assertEquals([put.status, put.json.message], [400, "Category Description  is required"]);
    assertEquals(
      (await t.api(Lib.updateCategoryCall, { params: { id: c._id }, token, bad: { isActive: 1 } })).status,
      400,
    );
  } finally {
    await t.close();
  }
});

Deno.test("categories: list search, status, paging and a filtered CSV; the picker lists active ones by title", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const titles = ["Automotive", "B2B", "Consumer Goods", "-Dangerous", "Finance", "Gaming", "Healthcare"];
    for (const [i, categoryTitle] of titles.entries()) {
      await created(t, token, Lib.addCategory, {
        categoryTitle,
        categoryDesc: `About ${categoryTitle}`,
        isActive: i !== 1,
      });
    }
    const page = async (body: Record<string, unknown>) =>
      (await t.api(Lib.listCategories, { token, body })).json.result;
    assertEquals((await page({ limit: 5, pageNo: 2 })).metadata, { total: 7, limit: 5, pageNo: 2 });
    assertEquals((await page({ limit: 5, pageNo: 2 })).data.length, 2);
    assertEquals(
      (await page({ search: "about g" })).data.map((c: { categoryTitle: string }) => c.categoryTitle),
      ["Gaming"],
    );
    assertEquals(
      (await page({ status: false })).data.map((c: { categoryTitle: string }) => c.categoryTitle),
      ["B2B"],
    );
    const csv = parseCsv(
      (await t.api(Lib.listCategories, {
        search: { format: "csv" },
        token,
        body: { status: true, search: "d" },
      }))
        .text,
    );
    assertEquals(csv[0], ["Category title", "Description", "Status", "Created"]);
    assertEquals(csv.slice(1).map((r) => r[0]).sort(), ["'-Dangerous", "Consumer Goods"]);
    const all = await t.api(Lib.categoryOptionsCall, { token: await t.tokenFor("BDE") });
    assertEquals(all.json.result.map((c: { label: string }) => c.label), [
      "-Dangerous",
      "Automotive",
      "Consumer Goods",
      "Finance",
      "Gaming",
      "Healthcare",
    ]);
    assertEquals(Object.keys(all.json.result[0]).sort(), [
      "_id",
      "categoryDesc",
      "categoryTitle",
      "label",
      "value",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("categories: roles: library home roles manage; accountants may not; the picker is for all staff", async () => {
  const t = await testApp();
  try {
    const c = await created(t, await t.tokenFor("ADMIN"), Lib.addCategory, {
      categoryTitle: "Auto",
      categoryDesc: "Cars",
    });
    await expectCallGuarded(t, Lib.listCategories, "ACCOUNTANT");
    await expectCallGuarded(t, Lib.addCategory, "ACCOUNTANT", {
      body: {
        categoryTitle: "X",
        categoryDesc: "Y",
      },
    });
    await expectCallGuarded(t, Lib.updateCategoryCall, "ACCOUNTANT", {
      params: { id: c._id },
      body: { isActive: true },
    });
    await expectCallGuarded(t, Lib.getCategoryCall, "SUBSCRIBER", { params: { id: c._id } });
    await expectCallGuarded(t, Lib.categoryOptionsCall, "SUPPLIER");
    assertEquals(
      (await t.api(Lib.categoryOptionsCall, { token: await t.tokenFor("ACCOUNTANT") })).status,
      200,
    );
  } finally {
    await t.close();
  }
});

Deno.test("supplier rules: add (numbers or numeric text), read, edit, delete; the list pages by 10 and exports", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("ADMIN");
    const add = await t.api(Lib.addSupplierRule, {
      token,
      body: { minSupplierCpi: "1.5", maxSupplierCpi: 3 },
    });
    assertEquals(add.status, 200, add.text);
    assertEquals(add.json.message, "Supplier rule added successfully");
    const r = add.json.result;
    assertEquals([r.minSupplierCpi, r.maxSupplierCpi, r.categoryTitle, r.isActive], [1.5, 3, "", true]);
    assertEquals((await t.api(Lib.getSupplierRuleCall, { params: { id: r._id }, token })).json.result, r);
    const upd = await t.api(Lib.updateSupplierRuleCall, {
      params: { id: r._id },
      token,
      body: { minSupplierCpi: 2, maxSupplierCpi: 2, categoryTitle: "Gen pop" },
    });
    assertEquals([upd.status, upd.json.result.minSupplierCpi, upd.json.result.categoryTitle], [
      200,
      2,
      "Gen pop",
    ]);

    for (let i = 0; i < 11; i++) {
      await created(t, token, Lib.addSupplierRule, {
        minSupplierCpi: i,
        maxSupplierCpi: i + 0.5,
        isActive: i % 2 === 0,
      });
    }
    const page = async (body: Record<string, unknown>) =>
      (await t.api(Lib.listSupplierRules, { token, body })).json.result;
    const first = await page({});
    assertEquals(first.metadata, { total: 12, limit: 10, pageNo: 1 });
    assertEquals((await page({ pageNo: 2 })).data.length, 2);
    assertEquals(
      (await page({ search: "7.5" })).data.map((x: { maxSupplierCpi: number }) => x.maxSupplierCpi),
      [7.5],
    );
    assertEquals((await page({ search: "gen" })).metadata.total, 1);
    assertEquals((await page({ status: false })).metadata.total, 5);

    const del = await t.api(Lib.updateSupplierRuleCall, {
      params: { id: r._id },
      token,
      body: { isDeleted: true },
    });
    assertEquals([del.status, del.json.message], [200, "Supplier rule deleted successfully"]);
    assertEquals((await page({})).metadata.total, 11);
    assertEquals((await t.api(Lib.getSupplierRuleCall, { params: { id: r._id }, token })).status, 404);

    const csv = parseCsv(
      (await t.api(Lib.listSupplierRules, { search: { format: "csv" }, token, body: { status: false } }))
        .text,
    );
    assertEquals(csv[0], ["Minimum CPI", "Maximum CPI", "Category", "Status", "Created"]);
    assertEquals(csv.slice(1).map((x) => x[0]).sort(), ["1", "3", "5", "7", "9"]);
    assertEquals((await auditOf(t, r._id)).map((l) => l.activity), [
      "Created supplier rule CPI 1.5-3",
      "Updated supplier rule CPI 2-2: Minimum CPI: 1.5 -> 2; Maximum CPI: 3 -> 2; Category: empty -> Gen pop",
      "Deleted supplier rule CPI 2-2",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("supplier rules: the spec's messages; numbers only; maximum not below minimum; admin roles only", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const empty = await t.api(Lib.addSupplierRule, { token, bad: {} });
    assertEquals(empty.status, 400);
    assertEquals(empty.json.errors, [
      { path: "minSupplierCpi", message: "Minimun CPI  is required" },
      { path: "maxSupplierCpi", message: "Maximum CPI  is required" },
    ]);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ minSupplierCpi: "", maxSupplierCpi: 2 }, "minSupplierCpi", "Minimun CPI  is required"],
      [{ minSupplierCpi: null, maxSupplierCpi: 2 }, "minSupplierCpi", "Minimun CPI  is required"],
      [{ minSupplierCpi: 1, maxSupplierCpi: "  " }, "maxSupplierCpi", "Maximum CPI  is required"],
      [{ minSupplierCpi: "abc", maxSupplierCpi: 2 }, "minSupplierCpi", MSG.cpiNotNumber],
      [{ minSupplierCpi: -1, maxSupplierCpi: 2 }, "minSupplierCpi", MSG.cpiNotNumber],
      [{ minSupplierCpi: 1, maxSupplierCpi: [2] }, "maxSupplierCpi", "Maximum CPI  is required"],
      [{ minSupplierCpi: 5, maxSupplierCpi: 2 }, "maxSupplierCpi", MSG.maxCpiBelowMin],
    ];
    for (const [body, path, message] of cases) {
      const r = await t.api(Lib.addSupplierRule, { token, bad: body });
      assertEquals(r.status, 400, JSON.stringify(body));
      assertEquals(r.json.errors?.find((e: { path: string }) => e.path === path)?.message, message, r.text);
    }
    const rule = await created(t, token, Lib.addSupplierRule, {
      minSupplierCpi: 1,
      maxSupplierCpi: 2,
    });
    await expectCallGuarded(t, Lib.listSupplierRules, "MANAGER");
    await expectCallGuarded(t, Lib.addSupplierRule, "MANAGER", {
      body: {
        minSupplierCpi: 1,
        maxSupplierCpi: 2,
      },
    });
    await expectCallGuarded(t, Lib.updateSupplierRuleCall, "ACCOUNTANT", {
      params: { id: rule._id },
      body: {
        isDeleted: true,
      },
    });
    await expectCallGuarded(t, Lib.getSupplierRuleCall, "MANAGER", { params: { id: rule._id } });
    // a malformed id in the path itself: spelled by hand
    assertMatch((await t.call("GET", "/admin/supplier/rule/xyz", { token })).json.message, /not found/);
  } finally {
    await t.close();
  }
});
