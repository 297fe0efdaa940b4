import { assertEquals } from "../helpers/assert.ts";
import { testApp } from "../helpers/app.ts";
import { clientBody, created, qualificationBody, questionBody, supplierBody } from "../helpers/master.ts";

Deno.test("master data: every POST and PUT answers junk bodies with a 400 and a message, never a 500", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const client = await created(t, token, "/admin/client/add", clientBody());
    const supplier = await created(t, token, "/admin/supplier/add", supplierBody());
    const category = await created(t, token, "/admin/category/add", {
      categoryTitle: "Auto",
      categoryDesc: "Cars",
    });
    const question = await created(t, token, "/admin/question/temp/add", questionBody());
    const qualification = await created(t, token, "/admin/qualification/add", qualificationBody());
    const rule = await created(t, token, "/admin/supplier/rule/add", {
      minSupplierCpi: 1,
      maxSupplierCpi: 2,
    });

    const lists = ["/admin/clients", "/admin/suppliers", "/admin/categories", "/admin/supplier/rules/data"];
    const forms: [string, string][] = [
      ["POST", "/admin/client/add"],
      ["PUT", `/admin/client/update/${client._id}`],
      ["POST", "/admin/clients/filter/all"],
      ["POST", "/admin/supplier/add"],
      ["PUT", `/admin/supplier/update/${supplier._id}`],
      ["POST", "/admin/category/add"],
      ["PUT", `/admin/category/update/${category._id}`],
      ["POST", "/admin/question/temp/add"],
      ["PUT", `/admin/survey/question/temp/update/${question._id}`],
      ["PUT", "/admin/question/temp/reorder"],
      ["POST", "/admin/qualification/add"],
      ["PUT", `/admin/qualification/update/${qualification._id}`],
      ["POST", "/admin/supplier/rule/add"],
      ["PUT", `/admin/supplier/rule/update/${rule._id}`],
      ["POST", "/admin/email/supplier/bulk/send"],
      ...lists.map((p) => ["POST", p] as [string, string]),
    ];
    for (const [method, path] of forms) {
      for (const raw of ["{", "[1]", "null", '"x"', "1e999"]) {
        const r = await t.call(method, path, { token, raw });
        assertEquals(r.status, 400, `${method} ${path} ${raw}: ${r.text}`);
        assertEquals(typeof r.json.message, "string");
      }
    }
    for (const path of lists) {
      for (
        const body of [{ pageNo: 0 }, { limit: "ten" }, { pageNo: 1.5 }, { filter: "x" }, {
          sortDir: "sideways",
        }]
      ) {
        const r = await t.call("POST", path, { token, body });
        assertEquals(r.status, 400, `${path} ${JSON.stringify(body)}: ${r.text}`);
      }
      // an unknown filter or sort is refused (it would filter or order nothing), never interpolated
      const odd = await t.call("POST", path, {
        token,
        body: { filter: { "1=1; --": "x" } },
      });
      assertEquals([odd.status, odd.json.errors?.[0]?.path], [400, "filter.1=1; --"], path);
      const sorted = await t.call("POST", path, { token, body: { sortBy: "nope; DROP" } });
      assertEquals(sorted.status, 400, path);
    }
  } finally {
    await t.close();
  }
});

Deno.test("400s name the field that is wrong, with a message that says what is expected", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const { id } = await t.userWith("MANAGER");
    const user = await t.call("PUT", `/admin/user/update/${id}`, { token, body: { isActive: "yes" } });
    assertEquals([user.status, user.json.errors], [400, [{
      path: "isActive",
      message: "isActive must be true or false",
    }]]);
    assertEquals(user.json.message, "isActive must be true or false");

    const regions = await t.call("POST", "/admin/regions", { token, body: {} });
    assertEquals([regions.status, regions.json.errors?.[0]?.path], [400, "countryId"]);
    const cities = await t.call("POST", "/admin/cities", { token, body: {} });
    assertEquals([cities.status, cities.json.errors?.[0]], [400, {
      path: "regionId",
      message: "Region or country is required",
    }]);

    for (const raw of ["{", "[1, 2]", "42"]) {
      const r = await t.call("POST", "/admin/clients", { token, raw });
      assertEquals(r.status, 400, raw);
      assertEquals(r.json.errors?.length, 1, `${raw}: errors, as every 400 has`);
      assertEquals(r.json.errors[0].message, r.json.message);
    }
  } finally {
    await t.close();
  }
});
