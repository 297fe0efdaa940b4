/**
 * The form kit's reading of react-hook-form's error tree (what a refused submit tells), and which
 * fields hold a submit back: not those hidden or disabled (issue 21, item 7).
 */
import { valibotResolver } from "@hookform/resolvers/valibot";
import { assert, assertEquals } from "../helpers/assert.ts";
import { errorLeaves } from "../../web/src/components/form/form.tsx";
import {
  FieldRegistry,
  skippingOffFields,
  withoutPaths,
} from "../../web/src/components/form/field-registry.ts";
import { ProjectSecurity } from "../../shared/schemas/project.ts";
import { MSG } from "../../shared/messages.ts";

Deno.test("errorLeaves lists every field error by its dotted path, through objects and arrays", () => {
  const ref = { name: "x" };
  const errors = {
    qualificationName: { type: "required", message: "Name is required", ref },
    questionTitle: { en: { type: "custom", message: "Question is required", ref } },
    questionOption: [
      undefined,
      {
        title: { type: "custom", message: "Option is required", ref },
        quota: { type: "check", message: "quota must be a number of 0 or more", ref, types: { check: "x" } },
      },
    ],
  };
  assertEquals(errorLeaves(errors), [
    { path: "qualificationName", message: "Name is required" },
    { path: "questionTitle.en", message: "Question is required" },
    { path: "questionOption.1.title", message: "Option is required" },
    { path: "questionOption.1.quota", message: "quota must be a number of 0 or more" },
  ]);
});

Deno.test("errorLeaves keeps a list's own message beside its items' and ignores empty trees", () => {
  const list = Object.assign([{ text: { type: "custom", message: "Option is required" } }], {
    type: "custom",
    message: "At least two options",
  });
  assertEquals(errorLeaves({ options: list }), [
    { path: "options", message: "At least two options" },
    { path: "options.0.text", message: "Option is required" },
  ]);
  assertEquals(errorLeaves({}), []);
  assertEquals(errorLeaves(undefined), []);
});

Deno.test("FieldRegistry: a field hidden after it was shown, or shown only disabled, is off", () => {
  const r = new FieldRegistry();
  r.add("isSpeeder");
  r.add("speedTime");
  r.add("clientId", true);
  assertEquals(r.offFields(), ["clientId"], "shown disabled");
  assert(r.has("clientId") && r.has("speedTime"), "both show their own message");
  r.remove("speedTime"); // Speeder switched off
  assertEquals(r.offFields(), ["speedTime", "clientId"]);
  assert(!r.has("speedTime"), "its message has no place on screen");
  r.add("speedTime"); // and on again
  r.remove("clientId", true);
  r.add("clientId");
  assertEquals(r.offFields(), []);
  // a name shown twice stays on until both are gone
  r.add("speedTime");
  r.remove("speedTime");
  assertEquals(r.offFields(), []);
});

Deno.test("skippingOffFields: an invalid hidden field does not hold the submit back; a shown one does", async () => {
  const resolver = valibotResolver(ProjectSecurity);
  const values = { isSpeeder: false, isProxyVpn: true, speedTime: "abc", maxIPCount: "2" };
  const run = (r: typeof resolver) =>
    r(values, undefined, {
      fields: {},
      names: undefined,
      shouldUseNativeValidation: false,
      criteriaMode: "all",
    });
  // the schema alone refuses the form for a value the user no longer sees
  const plain = await run(resolver);
  assertEquals(errorLeaves(plain.errors).map((e) => e.path), ["speedTime"]);

  const fields = new FieldRegistry();
  for (const name of ["isSpeeder", "isProxyVpn", "speedTime", "maxIPCount"]) fields.add(name);
  const shown = await run(skippingOffFields(resolver, fields));
  assertEquals(
    errorLeaves(shown.errors),
    [{ path: "speedTime", message: MSG.onlyDigits }],
    "on screen: refused",
  );

  fields.remove("speedTime");
  const hidden = await run(skippingOffFields(resolver, fields));
  assertEquals(hidden.errors, {});
  // the invalid hidden value is not sent; the others are, valid hidden ones included
  assertEquals(hidden.values, { isSpeeder: false, isProxyVpn: true, maxIPCount: 2 });
  fields.remove("maxIPCount");
  const both = await run(skippingOffFields(resolver, fields));
  assertEquals(both.values, { isSpeeder: false, isProxyVpn: true, maxIPCount: 2 });
  // an error of a field that was never on screen still refuses (the form tells it in its alert)
  const never = await run(skippingOffFields(resolver, new FieldRegistry()));
  assertEquals(errorLeaves(never.errors).map((e) => e.path), ["speedTime"]);
});

Deno.test("withoutPaths copies what it changes and leaves the input alone", () => {
  const input = { a: 1, list: [{ title: "", sub: "x" }, { title: "ok" }], deep: { x: { y: 2, z: 3 } } };
  const out = withoutPaths(input, ["list.0.title", "deep.x.y", "missing.path", "a"]);
  assertEquals(out, { list: [{ sub: "x" }, { title: "ok" }], deep: { x: { z: 3 } } });
  assertEquals(input.list[0].title, "");
  assertEquals(input.deep.x.y, 2);
  assertEquals(input.a, 1);
});
