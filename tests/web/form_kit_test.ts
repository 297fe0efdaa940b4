/** The form kit's reading of react-hook-form's error tree: what a refused submit tells. */
import { assertEquals } from "../helpers/assert.ts";
import { errorLeaves } from "../../web/src/components/form/form.tsx";

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
