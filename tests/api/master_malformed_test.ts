import { assertEquals } from "../helpers/assert.ts";
import { type ApiInput, testApp } from "../helpers/app.ts";
import type { AnyContract } from "../../shared/api/contract.ts";
import * as Em from "../../shared/api/email.ts";
import { clientBody, created, qualificationBody, questionBody, supplierBody } from "../helpers/master.ts";
import * as C from "../../shared/api/clients.ts";
import * as Look from "../../shared/api/lookups.ts";
import * as Users from "../../shared/api/users.ts";
import * as Lib from "../../shared/api/library.ts";
import * as Sup from "../../shared/api/suppliers.ts";

Deno.test("master data: every POST and PUT answers junk bodies with a 400 and a message, never a 500", async () => {
  const t = await testApp();
  try {
    const token = await t.tokenFor("SUPERADMIN");
    const client = await created(t, token, C.addClient, clientBody());
    const supplier = await created(t, token, Sup.addSupplier, supplierBody());
    const category = await created(t, token, Lib.addCategory, {
      categoryTitle: "Auto",
      categoryDesc: "Cars",
    });
    const question = await created(t, token, Lib.addTempQuestion, questionBody());
    const qualification = await created(t, token, Lib.addQualification, qualificationBody());
    const rule = await created(t, token, Lib.addSupplierRule, {
      minSupplierCpi: 1,
      maxSupplierCpi: 2,
    });

    const lists = [C.listClients, Sup.listSuppliers, Lib.listCategories, Lib.listSupplierRules];
    const junk = async <K extends AnyContract>(call: K, input: ApiInput<K>) => {
      for (const raw of ["{", "[1]", "null", '"x"', "1e999"]) {
        const r = await t.api(call, { ...input, token, raw });
        assertEquals(r.status, 400, `${call.key} ${raw}: ${r.text}`);
        assertEquals(typeof r.json.message, "string");
      }
    };
    await junk(C.addClient, {});
    await junk(C.updateClientCall, { params: { id: client._id } });
    await junk(C.filterClients, {});
    await junk(Sup.addSupplier, {});
    await junk(Sup.updateSupplierCall, { params: { id: supplier._id } });
    await junk(Lib.addCategory, {});
    await junk(Lib.updateCategoryCall, { params: { id: category._id } });
    await junk(Lib.addTempQuestion, {});
    await junk(Lib.updateTempQuestion, { params: { id: question._id } });
    await junk(Lib.reorderTempQuestions, {});
    await junk(Lib.addQualification, {});
    await junk(Lib.updateQualificationCall, { params: { id: qualification._id } });
    await junk(Lib.addSupplierRule, {});
    await junk(Lib.updateSupplierRuleCall, { params: { id: rule._id } });
    await junk(Em.sendBulkSupplierEmail, {});
    for (const call of lists) await junk(call, {});
    for (const call of lists) {
      for (
        const body of [{ pageNo: 0 }, { limit: "ten" }, { pageNo: 1.5 }, { filter: "x" }, {
          sortDir: "sideways",
        }]
      ) {
        const r = await t.api(call, { token, bad: body });
        assertEquals(r.status, 400, `${call.key} ${JSON.stringify(body)}: ${r.text}`);
      }
      // an unknown filter or sort is refused (it would filter or order nothing), never interpolated
      const odd = await t.api(call, {
        token,
        bad: { filter: { "1=1; --": "x" } },
      });
      assertEquals([odd.status, odd.json.errors?.[0]?.path], [400, "filter.1=1; --"], call.key);
      const sorted = await t.api(call, { token, bad: { sortBy: "nope; DROP" } });
      assertEquals(sorted.status, 400, call.key);
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
    const user = await t.api(Users.updateUserCall, { params: { id }, token, bad: { isActive: "yes" } });
    assertEquals([user.status, user.json.errors], [400, [{
      path: "isActive",
      message: "isActive must be true or false",
    }]]);
    assertEquals(user.json.message, "isActive must be true or false");

    const regions = await t.api(Look.regionsCall, { token, bad: {} });
    assertEquals([regions.status, regions.json.errors?.[0]?.path], [400, "countryId"]);
    const cities = await t.api(Look.citiesCall, { token, bad: {} });
    assertEquals([cities.status, cities.json.errors?.[0]], [400, {
      path: "regionId",
      message: "Region or country is required",
    }]);

    for (const raw of ["{", "[1, 2]", "42"]) {
      const r = await t.api(C.listClients, { token, raw });
      assertEquals(r.status, 400, raw);
      assertEquals(r.json.errors?.length, 1, `${raw}: errors, as every 400 has`);
      assertEquals(r.json.errors[0].message, r.json.message);
    }
  } finally {
    await t.close();
  }
});
