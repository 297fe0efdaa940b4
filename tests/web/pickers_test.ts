/** Pickers of the master-data forms: a saved value the lookup no longer offers, flags, user rows. */
import { isValidElement } from "react";
import { assert, assertEquals } from "../helpers/assert.ts";
import { withCurrent, withFlags } from "../../web/src/components/form/lookup-fields.tsx";
import { COUNTRIES } from "../../web/src/lib/lookups.ts";
import { lockedReason, roleOptionsFor } from "../../web/src/features/users/users.ts";

const BDES = [{ value: "a1", label: "Bruno Costa" }, { value: "b2", label: "Maya Chen" }];

Deno.test("a saved choice the lookup no longer lists stays, marked (inactive); listed ones are not repeated", () => {
  assertEquals(withCurrent(BDES, { value: "z9", label: "Old Hand" }, false), [
    { value: "z9", label: "Old Hand (inactive)" },
    ...BDES,
  ]);
  assertEquals(withCurrent(BDES, { value: "a1", label: "Bruno Costa" }, false), BDES);
  assertEquals(withCurrent(BDES, undefined, false), BDES);
  // while the lookup loads nothing is added (it may yet list the value)
  assertEquals(withCurrent([], { value: "z9", label: "Old Hand" }, true), []);
  assertEquals(withCurrent(BDES, { value: "z9", label: "" }, false)[0].label, "Unknown (inactive)");
});

Deno.test("countries carry their flag before the name; the form draws it, typing the name still finds it", () => {
  const ca = COUNTRIES.map!({ _id: "CA", code: "CA", label: "Canada", flag: "🇨🇦" });
  assertEquals(ca, { value: "CA", label: "Canada", adornment: "🇨🇦" });
  const [drawn] = withFlags([ca]);
  assertEquals([drawn.value, drawn.label], ["CA", "Canada"]);
  assert(isValidElement(drawn.adornment), "the flag is drawn by CountryFlag");
  assertEquals((drawn.adornment as { props: { flag?: string; code?: string } }).props, {
    flag: "🇨🇦",
    code: "CA",
  });
});

Deno.test("users grid: one's own row and, for non-Super Admins, Super Admin rows cannot be switched off or deleted", () => {
  const admin = { _id: "me", role: "ADMIN" as const };
  assertEquals(lockedReason({ _id: "me", role: "ADMIN" }, admin), "Your own account");
  assertEquals(lockedReason({ _id: "sa", role: "SUPERADMIN" }, admin), "Super Admins only");
  assertEquals(lockedReason({ _id: "m", role: "MANAGER" }, admin), null);
  assertEquals(lockedReason({ _id: "sa", role: "SUPERADMIN" }, { _id: "me", role: "SUPERADMIN" }), null);
  const values = (o: { value: string }[]) => o.map((r) => r.value);
  assert(!values(roleOptionsFor("ADMIN")).includes("SUPERADMIN"));
  assert(values(roleOptionsFor("ADMIN", "SUPERADMIN")).includes("SUPERADMIN"), "a held role still reads");
  assert(values(roleOptionsFor("SUPERADMIN")).includes("SUPERADMIN"));
});
