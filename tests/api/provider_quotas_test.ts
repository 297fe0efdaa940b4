/**
 * A provider quota never becomes several (issue 21, item 2). For each provider's documented quota
 * shapes (../shared/providers.md; Toluna's samplingrules.md), an offer is imported through the API
 * from the provider's stand-in, taken live, and respondents are sent through the real router
 * (/survey/start, the pre-screen, /survey/end) until the cell closes: the completes it accepts are
 * exactly what the provider asked for, never more. Shapes: a set of answers of one question ("18-24
 * or 25-34"), a list of postal codes, an interlocked combination, two quotas on one answer, a quota
 * already closed (0 left: closed, not "no limit"); for Logit a question under NOT; for
 * Toluna also a quota's own limit over its sub-quotas (one layer, several layers, sub-quotas on
 * several questions, and sub-quotas whose union cannot be said as one cell).
 */
import { assert, assertEquals } from "../helpers/assert.ts";
import { goLive, type ImportSetup, importSetup, respondent } from "../helpers/imports.ts";
import { back, PANEL, uidOf } from "../helpers/router.ts";
import type { SandboxOffer, SandboxQuota } from "../../server/providers/sandbox/data.ts";
import { PROVIDER_KEYS, type ProviderKey } from "../../shared/schemas/providers.ts";
import * as Parts from "../../shared/api/project-parts.ts";
import * as P from "../../shared/api/projects.ts";
import { PROVIDER_CALLS } from "../../shared/api/providers.ts";

const GENDER = "1001007", AGE = "1001538", POSTAL = "1001300";
const MALE = "2000246", FEMALE = "2000247", A18 = "2000300", A25 = "2000301", A35 = "2000302";
const CODES = Array.from({ length: 40 }, (_, i) => String(10001 + i));

type Answers = Record<string, string>;
type Shape = {
  name: string;
  quotas: SandboxQuota[];
  quotaTotals?: SandboxOffer["quotaTotals"];
  /** The survey's own targeting (none by default). */
  qualifications?: SandboxOffer["qualifications"];
  /** What the provider asked for, over every respondent below. */
  asked: number;
  /** Respondents the cell (or cells) take, sent round-robin. */
  answers: Answers[];
  /** Respondents sent: enough to fill every cell a split quota would have made, and more. */
  sent: number;
};

let next = 0;
/** A provider quota (in the stand-ins' neutral form): its conditions, limit and parent / layer. */
function quota(
  limit: number,
  conditions: [string, string[]][],
  parent?: string,
  layer?: string,
): SandboxQuota {
  const id = String(900_000 + ++next);
  return {
    id,
    parentId: parent ?? `${id}0`,
    layerId: layer ?? `${parent ?? id}5`,
    required: limit,
    completes: 0,
    conditions: conditions.map(([questionId, answerIds]) => ({ questionId, answerIds })),
  };
}

/** The shapes every provider documents: quotas over answers of one or several questions. */
const commonShapes = (): Shape[] => [
  {
    name: 'one question, a set of answers ("18-24 or 25-34")',
    quotas: [quota(4, [[AGE, [A18, A25]]])],
    asked: 4,
    answers: [{ Age: "18-24" }, { Age: "25-34" }],
    sent: 10,
  },
  {
    name: "a list of 40 postal codes",
    quotas: [quota(4, [[POSTAL, CODES]])],
    asked: 4,
    answers: CODES.slice(0, 8).map((c) => ({ "Postal code": c })),
    sent: 34,
  },
  {
    name: "interlocked: Female x (18-24 or 25-34)",
    quotas: [quota(3, [[GENDER, [FEMALE]], [AGE, [A18, A25]]])],
    asked: 3,
    answers: [{ Gender: "Female", Age: "18-24" }, { Gender: "Female", Age: "25-34" }],
    sent: 8,
  },
  {
    name: "two quotas naming the same answer (Male 5, Male 3)",
    quotas: [quota(5, [[GENDER, [MALE]]]), quota(3, [[GENDER, [MALE]]])],
    asked: 3,
    answers: [{ Gender: "Male" }],
    sent: 10,
  },
  {
    name: "a quota the provider has closed (0 left)",
    quotas: [quota(0, [[AGE, [A35]]])],
    asked: 0,
    answers: [{ Age: "35-44" }],
    sent: 3,
  },
];

/** Logit's own: a question's PreCodes under LogicalOperator NOT (any answer but these). */
const logitShapes = (): Shape[] => [{
  name: "NOT 55+ (any age but 55+), on a survey of all ages",
  qualifications: [{ questionId: AGE, answerIds: [A18, A25, A35, "2000303", "2000304"] }],
  quotas: [{
    ...quota(4, [[AGE, ["2000304"]]]),
    conditions: [{ questionId: AGE, answerIds: ["2000304"], excluded: true }],
  }],
  asked: 4,
  answers: [{ Age: "18-24" }, { Age: "45-54" }],
  sent: 8,
}];

/** Toluna's own: a quota (QuotaID, CompletesRequired) over layers (AND) of sub-quotas (OR). */
function tolunaShapes(): Shape[] {
  const p1 = "880010", p2 = "880020", p3 = "880030", p4 = "880040";
  return [
    {
      name: "one layer, Male 3 or Female 3, in a quota of 4",
      quotas: [quota(3, [[GENDER, [MALE]]], p1), quota(3, [[GENDER, [FEMALE]]], p1)],
      quotaTotals: { [p1]: { required: 4, completes: 0 } },
      asked: 4,
      answers: [{ Gender: "Male" }, { Gender: "Female" }],
      sent: 8,
    },
    {
      name: "two layers (gender AND age), sub-quotas of 3, in a quota of 4",
      quotas: [
        quota(3, [[GENDER, [MALE]]], p2, "1"),
        quota(3, [[GENDER, [FEMALE]]], p2, "1"),
        quota(3, [[AGE, [A18]]], p2, "2"),
        quota(3, [[AGE, [A25]]], p2, "2"),
      ],
      quotaTotals: { [p2]: { required: 4, completes: 0 } },
      asked: 4,
      answers: [
        { Gender: "Male", Age: "18-24" },
        { Gender: "Female", Age: "25-34" },
        { Gender: "Male", Age: "25-34" },
        { Gender: "Female", Age: "18-24" },
      ],
      sent: 8,
    },
    {
      name: "sub-quotas on two questions each (Female x ages, Male x ages), in a quota of 4",
      quotas: [
        quota(3, [[GENDER, [FEMALE]], [AGE, [A18, A25]]], p3),
        quota(3, [[GENDER, [MALE]], [AGE, [A18, A25]]], p3),
      ],
      quotaTotals: { [p3]: { required: 4, completes: 0 } },
      asked: 4,
      answers: [{ Gender: "Female", Age: "18-24" }, { Gender: "Male", Age: "25-34" }],
      sent: 8,
    },
    {
      name: "sub-quotas no one cell can join (Female x 18-24, Male x 35-44), in a quota of 4",
      quotas: [
        quota(3, [[GENDER, [FEMALE]], [AGE, [A18]]], p4),
        quota(3, [[GENDER, [MALE]], [AGE, [A35]]], p4),
      ],
      quotaTotals: { [p4]: { required: 4, completes: 0 } },
      asked: 4,
      answers: [{ Gender: "Female", Age: "18-24" }, { Gender: "Male", Age: "35-44" }],
      sent: 8,
    },
  ];
}

/** Puts the shape on one of the provider's US offers (1000 completes wanted, no other targeting). */
function offerWith(
  s: ImportSetup,
  provider: ProviderKey,
  shape: Pick<Shape, "quotas" | "quotaTotals" | "qualifications">,
) {
  const offer = s.sb.states[provider].offers.find((o) => o.country === "US" && !o.quotaTotals)!;
  Object.assign(offer, {
    required: 1000,
    completes: 0,
    quotas: shape.quotas,
    quotaTotals: shape.quotaTotals ?? {},
    qualifications: shape.qualifications ?? [],
  });
  return offer;
}

async function importOffer(s: ImportSetup, provider: ProviderKey, offer: SandboxOffer) {
  const r = await s.t.api(PROVIDER_CALLS[provider].add, {
    token: s.token,
    body: { surveyId: offer.id, clientId: s.client._id },
  });
  assertEquals(r.status, 200, `${provider}: ${r.text}`);
  return r.result.projectId;
}

/**
 * Imports the shape, takes it live and sends `sent` respondents round-robin; each one the client
 * takes returns complete. Returns the completes the router accepted and each respondent's end.
 */
async function route(s: ImportSetup, provider: ProviderKey, shape: Shape) {
  const projectId = await importOffer(s, provider, offerWith(s, provider, shape));
  const respond = respondent(s, projectId, await goLive(s, projectId));
  let accepted = 0;
  const ends: string[] = [];
  for (let i = 0; i < shape.sent; i++) {
    const sid = `${provider}${i}`;
    const at = await respond(sid, shape.answers[i % shape.answers.length]);
    if (at.startsWith("https://client.example")) {
      const end = await back(s.t, uidOf(at), "c");
      if (end.location.startsWith(`${PANEL}/complete`)) accepted++;
      ends.push(end.location.startsWith(`${PANEL}/complete`) ? "c" : "q");
    } else {
      assertEquals(at, `${PANEL}/quotafull?sid=${sid}`, `${provider} ${shape.name}: ${sid}`);
      ends.push("q");
    }
  }
  const row = await s.t.deps.db.selectFrom("projects").select("complete").where("id", "=", projectId)
    .executeTakeFirstOrThrow();
  assertEquals(row.complete, accepted);
  return { accepted, ends, projectId };
}

for (const provider of PROVIDER_KEYS) {
  Deno.test(`${provider}: each documented quota shape closes at what the provider asked for`, async () => {
    const s = await importSetup();
    try {
      const own = provider === "toluna" ? tolunaShapes() : provider === "logit" ? logitShapes() : [];
      const shapes = [...commonShapes(), ...own];
      for (const shape of shapes) {
        const { accepted, ends } = await route(s, provider, shape);
        assertEquals(
          accepted,
          shape.asked,
          `${provider}, ${shape.name}: the router accepted ${accepted} completes, the provider asked for ${shape.asked}`,
        );
        // once closed, it stays closed for every answer of the set
        assert(ends.slice(-2).every((e) => e === "q"), `${provider}, ${shape.name}: ${ends.join("")}`);
      }
    } finally {
      await s.close();
    }
  });
}

Deno.test('toluna: a quota of 235 on "18-24 or 25-34" is one cell of 235, and other ages stay open', async () => {
  const s = await importSetup();
  try {
    const projectId = await importOffer(
      s,
      "toluna",
      // beside it, another quota wants 100 completes aged 35-44
      offerWith(s, "toluna", { quotas: [quota(235, [[AGE, [A18, A25]]]), quota(100, [[AGE, [A35]]])] }),
    );
    const rows = await s.t.deps.db.selectFrom("project_quotas").select(["quotaValue", "qualificationIds"])
      .where("projectId", "=", projectId).where("isDeleted", "=", 0).execute();
    assertEquals(rows.length, 1);
    const cells = JSON.parse(rows[0].quotaValue) as { quotaSize: number; options: string[][] }[];
    assertEquals(
      cells.map((c) => c.quotaSize),
      [235, 100],
      "one limit of 235 for the set, not 235 per age band",
    );
    assertEquals(cells[0].options.map((g) => g.length), [1 + 1]);
    // the Quota tab shows it as one cell over the set, and will not split it into single options
    const admin = await s.t.tokenFor("SUPERADMIN");
    const listed = (await s.t.api(Parts.listQuotasCall, { params: { projectId }, token: admin })).json.result;
    assertEquals(listed[0].grouped, true);
    assertEquals(listed[0].options.map((o: { text: string }) => o.text), ["18-24 or 25-34", "35-44"]);
    assertEquals(listed[0].total, 335);
    const split = await s.t.api(Parts.updateQuotaCall, {
      params: { quotaId: listed[0]._id, projectId },
      token: admin,
      body: { quotaOptionId: [listed[0].quotaId.qualificationOptions[0]._id] },
    });
    assertEquals(split.status, 400, split.text);
    // its size can still be set by hand
    const sized = await s.t.api(Parts.updateQuotaSizesCall, {
      params: { quotaId: listed[0]._id, projectId },
      token: admin,
      body: { quotaValue: [{ quotaOptionId: listed[0].options[0].quotaOptionId, quotaSize: 2 }] },
    });
    assertEquals(sized.status, 200, sized.text);
    const respond = respondent(s, projectId, await goLive(s, projectId));
    const ends = [];
    for (const [i, age] of ["18-24", "25-34", "18-24", "25-34", "35-44"].entries()) {
      const at = await respond(`t${i}`, { Age: age });
      ends.push(at.startsWith("https://client.example") ? (await back(s.t, uidOf(at), "c")).location : at);
    }
    assertEquals(ends.map((e) => e.replace(/\?.*/, "")), [
      `${PANEL}/complete`,
      `${PANEL}/complete`,
      `${PANEL}/quotafull`,
      `${PANEL}/quotafull`,
      `${PANEL}/complete`,
    ]);
    // a clone of the project keeps the cell over the set (and its strict limit), its count at 0
    const group = await s.t.deps.db.selectFrom("projects").select("parentProjectId").where(
      "id",
      "=",
      projectId,
    )
      .executeTakeFirstOrThrow();
    const clone = await s.t.api(P.cloneProjectCall, {
      params: { projectId: group.parentProjectId! },
      token: admin,
      body: { isQuota: true, countryId: "US", languageId: "en" },
    });
    assertEquals(clone.status, 200, clone.text);
    const copies = await s.t.deps.db.selectFrom("projects").select("id").where(
      "parentProjectId",
      "=",
      clone.json.result.parentProjectId,
    ).execute();
    const copied = await s.t.deps.db.selectFrom("project_quotas").select("quotaValue")
      .where("projectId", "=", copies[0].id).where("isDeleted", "=", 0).executeTakeFirstOrThrow();
    assertEquals(
      JSON.parse(copied.quotaValue),
      cells.map((c, i) => ({ ...c, quotaSize: i ? c.quotaSize : 2, completes: 0 })),
    );
  } finally {
    await s.close();
  }
});
