/** The unsaved-changes guard's rule: which moves leave a form (and so ask first while it is dirty). */
import { assertEquals } from "../helpers/assert.ts";
import { leavesForm } from "../../web/src/components/form/unsaved.ts";

const at = (pathname: string) => ({ pathname });

Deno.test("leaving a form: another page asks, a tab of the same page (query only) does not", () => {
  const edit = at("/admin/project/child/abc/edit");
  assertEquals(leavesForm(edit, at("/admin/client")), true);
  assertEquals(leavesForm(edit, at("/admin/project/child/def/edit")), true);
  assertEquals(leavesForm(edit, at("/admin/project/child/abc/edit")), false);
});

Deno.test("leaving a form: the sign-in page never waits (session ended or signed out)", () => {
  assertEquals(leavesForm(at("/admin/client/add"), at("/login")), false);
});
