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
import { UserCreate } from "../../shared/schemas/user.ts";
import { ChildProject, ProjectSecurity, SupplierMapForm } from "../../shared/schemas/project.ts";
import { ListBody } from "../../shared/list.ts";
import { maxLengthOf } from "../../web/src/components/form/schema-limits.ts";
import { htmlToText } from "../../shared/html.ts";

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

Deno.test("e-mail bodies: readable text part; tag-only bodies count as blank", () => {
  assertEquals(
    htmlToText("<p>Hello&nbsp;<b>there</b></p><ul><li>One</li><li>Two &amp; three</li></ul>"),
    "Hello there\n- One\n- Two & three",
  );
  assertEquals(messages(BulkSupplierEmail, { emailBody: "<p><br></p>" }), ["Body is required"]);
  assertEquals(v.parse(BulkSupplierEmail, { emailBody: " <p>Hi</p> " }), {
    emailBody: "<p>Hi</p>",
    subject: "A message from Samplex",
  });
});

Deno.test("text fields are bounded: blank keeps the spec's message, too long says which field and its limit", () => {
  const client = (extra: Record<string, unknown>) => ({
    clientName: "Acme Research",
    countryId: "US",
    ...extra,
  });
  assertEquals(messages(ClientForm, client({ clientName: "" })), ["Client name  is required"]);
  assertEquals(messages(ClientForm, client({ clientName: "x".repeat(101) })), [
    "Client name must be at most 100 characters",
  ]);
  assertEquals(messages(ClientForm, client({ clientName: "x".repeat(100) })), []);
  assertEquals(messages(ClientForm, client({ city: "x".repeat(1_000_000) })), [
    "City must be at most 100 characters",
  ]);
  assertEquals(messages(ClientForm, client({ clientWebsite: "x".repeat(2049) })), [
    "Website must be at most 2048 characters",
  ]);
  assertEquals(
    messages(UserCreate, {
      firstName: "x".repeat(1_000_000),
      lastName: "User",
      email: "a@b.co",
      role: "ADMIN",
      password: "Passw0rd!",
    }),
    ["First name must be at most 100 characters"],
  );
  assertEquals(
    messages(QuestionForm, { questionTitle: "x".repeat(201), questionType: "TEXT" }),
    ["Question name must be at most 200 characters"],
  );
  assertEquals(messages(CategoryForm, { categoryTitle: "x".repeat(101), categoryDesc: "d" }), [
    "Category title must be at most 100 characters",
  ]);
  assertEquals(messages(SupplierForm, { supplierName: "" }).includes("Supplier name  is required"), true);
  assertEquals(
    messages(SupplierForm, { supplierName: "x".repeat(101) }).includes(
      "Supplier name must be at most 100 characters",
    ),
    true,
  );
});

Deno.test("numbers are finite, whole where they count, and within sane bounds", () => {
  const child = {
    projectName: "Tracker",
    parentProjectId: "a".repeat(24),
    clientId: "b".repeat(24),
    countryId: "US",
    averageLOI: 12,
    ir: 40,
    sampleSize: 100,
    respondentClickQuota: 1000,
    cpi: "2.50",
    startDate: "2026-11-01",
    endDate: "2026-12-01",
  };
  assertEquals(messages(ChildProject, child), []);
  assertEquals(messages(ChildProject, { ...child, cpi: 1e308 }), ["CPI must be at most 1000000"]);
  assertEquals(messages(ChildProject, { ...child, cpi: Infinity }), ["CPI  is required"]);
  assertEquals(messages(ChildProject, { ...child, sampleSize: "9".repeat(400) }), [
    "Sample size must be at most 1000000000",
  ]);
  assertEquals(messages(ChildProject, { ...child, respondentClickQuota: Infinity }), [
    "Only digits are allowed for this field ",
  ]);
  assertEquals(messages(ChildProject, { ...child, respondentClickQuota: 1.5 }), [
    "Only digits are allowed for this field ",
  ]);
  const map = { projectId: "a".repeat(24), supplierId: "b".repeat(24) };
  assertEquals(messages(SupplierMapForm, { ...map, supplierClickQuota: 1.5 }), [
    "Only digits are allowed for this field ",
  ]);
  assertEquals(messages(SupplierMapForm, { ...map, supplierCPI: 1e308 }), [
    "Supplier CPI must be at most 1000000",
  ]);
  assertEquals(messages(SupplierMapForm, { ...map, supplierClickQuota: 5, supplierCPI: "1.25" }), []);
  assertEquals(
    messages(ProjectSecurity, { maxIPCount: "9".repeat(400) }),
    ["Max IP count must be at most 1000000000"],
  );
});

Deno.test("list bodies: search at most 100 characters and no NUL; pageNo within a million", () => {
  assertEquals(messages(ListBody, { search: "x".repeat(100) }), []);
  assertEquals(messages(ListBody, { search: "x".repeat(101) }), ["search must be at most 100 characters"]);
  assertEquals(messages(ListBody, { search: "a\u0000b" }), ["search must not hold control characters"]);
  assertEquals(messages(ListBody, { pageNo: 1e308 }), ["pageNo must be at most 1000000"]);
  assertEquals(messages(ListBody, { filter: { x: Infinity } }).length, 1);
  assertEquals(messages(ListBody, { status: true }), []);
});

Deno.test("the form kit reads each text field's max length from its schema", () => {
  assertEquals(maxLengthOf(ClientForm, "clientName"), 100);
  assertEquals(maxLengthOf(ClientForm, "clientEmail"), 254);
  assertEquals(maxLengthOf(ClientForm, "clientWebsite"), 2048);
  assertEquals(maxLengthOf(ClientForm, "apiBody"), 20_000);
  assertEquals(maxLengthOf(ClientUpdate, "clientName"), 100, "through the {isActive} | form lazy");
  assertEquals(maxLengthOf(SupplierForm, "redirectComplete"), 2048, "a pipe inside a pipe");
  assertEquals(maxLengthOf(UserCreate, "firstName"), 100);
  assertEquals(maxLengthOf(QuestionForm, "questionTitle.en"), 200, "a per-language title");
  assertEquals(maxLengthOf(ClientForm, "netDays"), undefined, "not text");
  assertEquals(maxLengthOf(ClientForm, "supplierId"), undefined, "a list's length is not characters");
  assertEquals(maxLengthOf(ClientForm, "nope"), undefined);
});
