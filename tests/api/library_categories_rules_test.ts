import { assertEquals, assertMatch } from "../helpers/assert.ts";
import { expectGuarded, testApp } from "../helpers/app.ts";
import { auditOf, created, parseCsv } from "../helpers/master.ts";
import { MSG } from "../../shared/messages.ts";

Deno.test("categories: a manager adds, lists, edits, switches and deletes categories; each change is logged", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("MANAGER");
    const add = await t.call("POST", "/admin/category/add", {
      token,
      body: { categoryTitle: "  Healthcare ", categoryDesc: " Patients and HCPs " },
    });
    assertEquals(add.status, 200, add.text);
    assertEquals(add.json.message, "Category added successfully");
    const c = add.json.result;
    assertEquals([c.categoryTitle, c.categoryDesc, c.isActive], ["Healthcare", "Patients and HCPs", true]);
    assertEquals((await t.call("GET", `/admin/category/${c._id}`, { token })).json.result, c);

    const upd = await t.call("PUT", `/admin/category/update/${c._id}`, {
      token,
      body: { categoryTitle: "Healthcare & Pharma", categoryDesc: "Patients, caregivers and HCPs" },
    });
    assertEquals([upd.status, upd.json.message, upd.json.result.categoryTitle], [
      200,
      "Category updated successfully",
      "Healthcare & Pharma",
    ]);
    const off = await t.call("PUT", `/admin/category/update/${c._id}`, { token, body: { isActive: false } });
    assertEquals([off.json.message, off.json.result.isActive], [
      "Category status updated successfully",
      false,
    ]);
    // inactive categories leave the picker but stay in the grid
    const staff = await t.tokenFor("SUBSCRIBER");
    assertEquals((await t.call("GET", "/admin/categories/all", { token: staff })).json.result, []);
    assertEquals(
      (await t.call("POST", "/admin/categories", { token, body: {} })).json.result.metadata.total,
      1,
    );

    const del = await t.call("PUT", `/admin/category/update/${c._id}`, { token, body: { isDeleted: true } });
    assertEquals([del.status, del.json.message], [200, "Category deleted successfully"]);
    assertEquals(
      (await t.call("POST", "/admin/categories", { token, body: {} })).json.result.metadata.total,
      0,
    );
    assertEquals((await t.call("GET", `/admin/category/${c._id}`, { token })).status, 404);
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
    const r = await t.call("POST", "/admin/category/add", { token, body: {} });
    assertEquals(r.status, 400);
    assertEquals(r.json.errors, [
      { path: "categoryTitle", message: "Category title  is required" },
      { path: "categoryDesc", message: "Category Description  is required" },
    ]);
    const blank = await t.call("POST", "/admin/category/add", {
      token,
      body: { categoryTitle: "  ", categoryDesc: 3 },
    });
    assertEquals(blank.json.errors, [
      { path: "categoryTitle", message: "Category title  is required" },
      { path: "categoryDesc", message: "Category Description  is required" },
    ]);
    assertEquals((await t.call("POST", "/admin/category/add", { token, raw: "nope" })).status, 400);
    const c = await created(t, token, "/admin/category/add", { categoryTitle: "Auto", categoryDesc: "Cars" });
    const put = await t.call("PUT", `/admin/category/update/${c._id}`, {
      token,
      body: { categoryTitle: "Auto" },
    });
    assertEquals([put.status, put.json.message], [400, "Category Description  is required"]);
    assertEquals(
      (await t.call("PUT", `/admin/category/update/${c._id}`, { token, body: { isActive: 1 } })).status,
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
      await created(t, token, "/admin/category/add", {
        categoryTitle,
        categoryDesc: `About ${categoryTitle}`,
        isActive: i !== 1,
      });
    }
    const page = async (body: Record<string, unknown>) =>
      (await t.call("POST", "/admin/categories", { token, body })).json.result;
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
      (await t.call("POST", "/admin/categories?format=csv", { token, body: { status: true, search: "d" } }))
        .text,
    );
    assertEquals(csv[0], ["Category title", "Description", "Status", "Created"]);
    assertEquals(csv.slice(1).map((r) => r[0]).sort(), ["'-Dangerous", "Consumer Goods"]);
    const all = await t.call("GET", "/admin/categories/all", { token: await t.tokenFor("BDE") });
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
    const c = await created(t, await t.tokenFor("ADMIN"), "/admin/category/add", {
      categoryTitle: "Auto",
      categoryDesc: "Cars",
    });
    await expectGuarded(t, "POST", "/admin/categories", "ACCOUNTANT");
    await expectGuarded(t, "POST", "/admin/category/add", "ACCOUNTANT", {
      categoryTitle: "X",
      categoryDesc: "Y",
    });
    await expectGuarded(t, "PUT", `/admin/category/update/${c._id}`, "ACCOUNTANT", { isActive: true });
    await expectGuarded(t, "GET", `/admin/category/${c._id}`, "SUBSCRIBER");
    await expectGuarded(t, "GET", "/admin/categories/all", "SUPPLIER");
    assertEquals(
      (await t.call("GET", "/admin/categories/all", { token: await t.tokenFor("ACCOUNTANT") })).status,
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
    const add = await t.call("POST", "/admin/supplier/rule/add", {
      token,
      body: { minSupplierCpi: "1.5", maxSupplierCpi: 3 },
    });
    assertEquals(add.status, 200, add.text);
    assertEquals(add.json.message, "Supplier rule added successfully");
    const r = add.json.result;
    assertEquals([r.minSupplierCpi, r.maxSupplierCpi, r.categoryTitle, r.isActive], [1.5, 3, "", true]);
    assertEquals((await t.call("GET", `/admin/supplier/rule/${r._id}`, { token })).json.result, r);
    const upd = await t.call("PUT", `/admin/supplier/rule/update/${r._id}`, {
      token,
      body: { minSupplierCpi: 2, maxSupplierCpi: 2, categoryTitle: "Gen pop" },
    });
    assertEquals([upd.status, upd.json.result.minSupplierCpi, upd.json.result.categoryTitle], [
      200,
      2,
      "Gen pop",
    ]);

    for (let i = 0; i < 11; i++) {
      await created(t, token, "/admin/supplier/rule/add", {
        minSupplierCpi: i,
        maxSupplierCpi: i + 0.5,
        isActive: i % 2 === 0,
      });
    }
    const page = async (body: Record<string, unknown>) =>
      (await t.call("POST", "/admin/supplier/rules/data", { token, body })).json.result;
    const first = await page({});
    assertEquals(first.metadata, { total: 12, limit: 10, pageNo: 1 });
    assertEquals((await page({ pageNo: 2 })).data.length, 2);
    assertEquals(
      (await page({ search: "7.5" })).data.map((x: { maxSupplierCpi: number }) => x.maxSupplierCpi),
      [7.5],
    );
    assertEquals((await page({ search: "gen" })).metadata.total, 1);
    assertEquals((await page({ status: false })).metadata.total, 5);

    const del = await t.call("PUT", `/admin/supplier/rule/update/${r._id}`, {
      token,
      body: { isDeleted: true },
    });
    assertEquals([del.status, del.json.message], [200, "Supplier rule deleted successfully"]);
    assertEquals((await page({})).metadata.total, 11);
    assertEquals((await t.call("GET", `/admin/supplier/rule/${r._id}`, { token })).status, 404);

    const csv = parseCsv(
      (await t.call("POST", "/admin/supplier/rules/data?format=csv", { token, body: { status: false } }))
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
    const empty = await t.call("POST", "/admin/supplier/rule/add", { token, body: {} });
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
      const r = await t.call("POST", "/admin/supplier/rule/add", { token, body });
      assertEquals(r.status, 400, JSON.stringify(body));
      assertEquals(r.json.errors?.find((e: { path: string }) => e.path === path)?.message, message, r.text);
    }
    const rule = await created(t, token, "/admin/supplier/rule/add", {
      minSupplierCpi: 1,
      maxSupplierCpi: 2,
    });
    await expectGuarded(t, "POST", "/admin/supplier/rules/data", "MANAGER");
    await expectGuarded(t, "POST", "/admin/supplier/rule/add", "MANAGER", {
      minSupplierCpi: 1,
      maxSupplierCpi: 2,
    });
    await expectGuarded(t, "PUT", `/admin/supplier/rule/update/${rule._id}`, "ACCOUNTANT", {
      isDeleted: true,
    });
    await expectGuarded(t, "GET", `/admin/supplier/rule/${rule._id}`, "MANAGER");
    assertMatch((await t.call("GET", "/admin/supplier/rule/xyz", { token })).json.message, /not found/);
  } finally {
    await t.close();
  }
});
