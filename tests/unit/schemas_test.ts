import * as v from "valibot";
import { assert, assertEquals } from "../helpers/assert.ts";
import { ClientForm, ClientUpdate } from "../../shared/schemas/client.ts";
import { parseSupplierRuleCpi, SupplierForm, supplierRedirect } from "../../shared/schemas/supplier.ts";
import {
  CategoryForm,
  optionsFromLines,
  QualificationForm,
  qualificationKeyOf,
  QuestionForm,
  SupplierRuleForm,
} from "../../shared/schemas/library.ts";
import { BulkSupplierEmail } from "../../shared/schemas/email.ts";
import { hasPlaceholder, SID_PLACEHOLDERS } from "../../shared/schemas/common.ts";
import { htmlToText, safeEmailHtml } from "../../shared/html.ts";

const messages = (schema: v.GenericSchema, input: unknown) => {
  const r = v.safeParse(schema, input);
  return r.success ? [] : r.issues.map((i) => i.message);
};

Deno.test("every master-data form answers a missing field with its own message, never valibot's wording", () => {
  const forms = {
    ClientForm,
    SupplierForm,
    CategoryForm,
    QuestionForm,
    QualificationForm,
    SupplierRuleForm,
    BulkSupplierEmail,
  };
  for (const [name, schema] of Object.entries(forms)) {
    for (const input of [{}, { anything: null }]) {
      const msgs = messages(schema as v.GenericSchema, input);
      assert(msgs.length > 0, `${name} rejects an empty form`);
      for (const m of msgs) assert(!/^Invalid (key|type)/.test(m), `${name}: "${m}"`);
    }
  }
});

Deno.test("supplier redirects: blank, or a URL with a respondent-id placeholder", () => {
  const ok = [
    "",
    "https://panel.example/complete?sid=[sid]",
    "https://panel.example/c?rid={sid}&status=c",
    "http://panel.example/c/[SID]",
    "https://panel.example/c?x=%5Bsid%5D",
  ];
  const bad = [
    "https://panel.example/complete",
    "panel.example/?sid=[sid]",
    "ftp://x/[sid]",
    "https:// x/[sid]",
    "[sid]",
  ];
  for (const u of ok) assert(v.is(supplierRedirect, u), u);
  for (const u of bad) assertEquals(messages(supplierRedirect, u), ["Invalid Url"], u);
  assert(hasPlaceholder("https://a.example/?s=##SID##", SID_PLACEHOLDERS));
});

Deno.test("supplier rule CPI: numbers separated by |", () => {
  const parse = (s: string) => v.safeParse(SupplierForm.entries.supplierRuleCPI, s);
  assertEquals(parse(" 2.5 | 3.4|4|6 ").output, "2.5|3.4|4|6");
  for (const bad of ["2.5|", "|2", "a|b", "2,5", "-1|2"]) assert(!parse(bad).success, bad);
  assertEquals(parseSupplierRuleCpi("2.5|3.4|4|6"), [2.5, 3.4, 4, 6]);
});

Deno.test("update bodies: {isActive} or {isDeleted: true} alone, else the full form with its messages", () => {
  assertEquals(v.parse(ClientUpdate, { isActive: false }), { isActive: false });
  assertEquals(v.parse(ClientUpdate, { isDeleted: true }), { isDeleted: true });
  assertEquals(messages(ClientUpdate, { isDeleted: false }), ["isDeleted must be true"]);
  assertEquals(messages(ClientUpdate, { isActive: true, clientName: "ab" }), [
    "Client name  is required",
    "Country is required",
  ]);
  const full = v.parse(ClientUpdate, { clientName: "Acme Research", countryId: "us", netDays: "60" });
  assertEquals([
    (full as v.InferOutput<typeof ClientForm>).countryId,
    (full as v.InferOutput<typeof ClientForm>).netDays,
  ], ["US", 60]);
});

Deno.test("library helpers: keys from names, MAP options from lines", () => {
  assertEquals(qualificationKeyOf("  Household Income (USD) "), "household_income_usd");
  assertEquals(qualificationKeyOf("Éducation niveau"), "education_niveau");
  assertEquals(optionsFromLines("North\n\n South \r\nWest").map((o) => o.title), ["North", "South", "West"]);
  assertEquals(optionsFromLines("x")[0], {
    title: "x",
    enable: true,
    formvalidate: true,
    diy: true,
    local: true,
    quota: 0,
  });
});

Deno.test("e-mail bodies: readable text part, no scripts or handlers; tag-only bodies count as blank", () => {
  assertEquals(
    htmlToText("<p>Hello&nbsp;<b>there</b></p><ul><li>One</li><li>Two &amp; three</li></ul>"),
    "Hello there\n- One\n- Two & three",
  );
  assertEquals(
    safeEmailHtml('<p onclick="x()">Hi</p><script>steal()</script><a href="javascript:alert(1)">x</a>'),
    '<p>Hi</p><a href="#">x</a>',
  );
  assertEquals(messages(BulkSupplierEmail, { emailBody: "<p><br></p>" }), ["Body is required"]);
  assertEquals(v.parse(BulkSupplierEmail, { emailBody: " <p>Hi</p> " }), {
    emailBody: "<p>Hi</p>",
    subject: "A message from Samplex",
  });
});
