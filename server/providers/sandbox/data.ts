/**
 * The stand-ins' offers, in a neutral form each provider's stand-in renders in its own shape:
 * realistic surveys (titles, countries, LOI, IR, CPI, end dates, devices), quotas on gender, age and
 * region, and qualifications, from a fixed seed so every run sees the same offers.
 */
import { seededRandom } from "../../../shared/random.ts";

export type SandboxQuestion = {
  id: string;
  name: string;
  answers: { id: string; text: string }[];
  /** Answered by value, not by answer id (Toluna's AnswerValues: postal codes, ranges). */
  byValue?: boolean;
};

/** The questions the stand-ins target on (ids in the style of a provider's profile attributes). */
export const SANDBOX_QUESTIONS: SandboxQuestion[] = [
  {
    id: "1001007",
    name: "Gender",
    answers: [{ id: "2000246", text: "Male" }, { id: "2000247", text: "Female" }],
  },
  {
    id: "1001538",
    name: "Age",
    answers: [
      { id: "2000300", text: "18-24" },
      { id: "2000301", text: "25-34" },
      { id: "2000302", text: "35-44" },
      { id: "2000303", text: "45-54" },
      { id: "2000304", text: "55+" },
    ],
  },
  {
    id: "1001042",
    name: "Household income",
    answers: [
      { id: "2000410", text: "Under $50,000" },
      { id: "2000411", text: "$50,000 - $99,999" },
      { id: "2000412", text: "$100,000 or more" },
    ],
  },
  {
    id: "1001200",
    name: "Employment status",
    answers: [
      { id: "2000500", text: "Employed full time" },
      { id: "2000501", text: "Employed part time" },
      { id: "2000502", text: "Not employed" },
    ],
  },
  {
    id: "1001300",
    name: "Postal code",
    byValue: true,
    answers: Array.from({ length: 60 }, (_, i) => String(10001 + i)).map((code) => ({
      id: code,
      text: code,
    })),
  },
];
export const questionById = (id: string) => SANDBOX_QUESTIONS.find((q) => q.id === id);

export type SandboxQuota = {
  id: string;
  parentId: string;
  layerId: string;
  required: number;
  completes: number;
  /** excluded: any answer but these (where the provider can say so: Logit's NOT). */
  conditions: { questionId: string; answerIds: string[]; excluded?: boolean }[];
};

/** A provider quota's own totals where it nests sub-quotas (Toluna's QuotaID); else their sum. */
export type SandboxQuotaTotal = { required: number; completes: number };

export type SandboxOffer = {
  id: string;
  waveId: string;
  buyerId: string;
  title: string;
  country: string;
  loi: number;
  ir: number;
  cpi: number;
  required: number;
  completes: number;
  endDate: string;
  desktop: boolean;
  mobile: boolean;
  tablet: boolean;
  quotas: SandboxQuota[];
  /** Totals of the enclosing quotas, by parentId, where they differ from what their sub-quotas add up to. */
  quotaTotals?: Record<string, SandboxQuotaTotal>;
  /** Questions every respondent must pass, with the answers that qualify. */
  qualifications: { questionId: string; answerIds: string[] }[];
};

const TOPICS = [
  "Streaming habits",
  "Grocery shopping",
  "Car buyers",
  "Mobile banking",
  "Travel plans",
  "Coffee drinkers",
  "Home improvement",
  "Pet owners",
  "Sports fans",
  "Health insurance",
  "Fast food",
  "Online gaming",
];
const COUNTRIES = ["US", "US", "US", "GB", "CA", "DE", "FR", "AU"];

/** `count` offers for a provider (the seed keeps each provider's offers its own). */
export function sandboxOffers(seed: number, count = 36, base = 70_000): SandboxOffer[] {
  const r = seededRandom(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const out: SandboxOffer[] = [];
  // end dates from today on: offers on the market are open
  const start = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  for (let i = 0; i < count; i++) {
    const id = String(base + seed * 1000 + i * 7 + 1);
    const required = 100 + Math.floor(r() * 20) * 50;
    const completes = Math.floor(required * r() * 0.6);
    const remaining = required - completes;
    const half = Math.ceil(remaining / 2);
    const quotaBase = Number(id) * 10;
    const gender: SandboxQuota[] = [
      { answer: "2000246", share: half },
      { answer: "2000247", share: remaining - half },
    ].map((g, k) => ({
      id: String(quotaBase + k + 1),
      parentId: String(quotaBase),
      layerId: String(quotaBase + 5),
      required: g.share + Math.floor(completes / 2),
      completes: Math.floor(completes / 2),
      conditions: [{ questionId: "1001007", answerIds: [g.answer] }],
    }));
    const quotas = i % 5 === 4 ? [] : gender;
    if (i % 3 === 0) {
      quotas.push({
        id: String(quotaBase + 8),
        parentId: String(quotaBase + 7),
        layerId: String(quotaBase + 9),
        required: Math.ceil(required * 0.3),
        completes: Math.floor(completes * 0.3),
        conditions: [{ questionId: "1001538", answerIds: ["2000300", "2000301"] }],
      });
    }
    const qualifications = [{
      questionId: "1001538",
      answerIds: ["2000300", "2000301", "2000302", "2000303"],
    }];
    if (i % 4 === 1) qualifications.push({ questionId: "1001042", answerIds: ["2000411", "2000412"] });
    if (i % 6 === 2) qualifications.push({ questionId: "1001200", answerIds: ["2000500", "2000501"] });
    const end = new Date(start + (20 + Math.floor(r() * 200)) * 86_400_000).toISOString().slice(0, 10);
    out.push({
      id,
      waveId: String(100 + i),
      buyerId: String(9000 + Math.floor(r() * 40)),
      title: `${pick(TOPICS)} ${2026 + (i % 2)} - ${["Wave", "Study", "Tracker", "Pulse"][i % 4]} ${i + 1}`,
      country: COUNTRIES[i % COUNTRIES.length],
      loi: 5 + Math.floor(r() * 26),
      ir: 10 + Math.floor(r() * 80),
      cpi: Math.round((0.75 + r() * 6) * 100) / 100,
      required,
      completes,
      endDate: end,
      desktop: true,
      mobile: r() > 0.3,
      tablet: r() > 0.5,
      quotas,
      qualifications,
    });
  }
  return out;
}
