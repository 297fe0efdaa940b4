/** Demo data for a fresh database (SEED=demo, the default), through the same domain functions. */
import * as v from "valibot";
import type { Deps } from "../deps.ts";
import { SYSTEM_ACTOR } from "../domain/audit/log.ts";
import { createUser } from "../domain/users/users.ts";
import type { Role } from "../../shared/roles.ts";
import { ClientForm } from "../../shared/schemas/client.ts";
import { SupplierForm } from "../../shared/schemas/supplier.ts";
import {
  CategoryForm,
  optionsFromLines,
  QualificationForm,
  QuestionForm,
  SupplierRuleForm,
} from "../../shared/schemas/library.ts";
import { createClient } from "../domain/clients/clients.ts";
import { createSupplier } from "../domain/suppliers/suppliers.ts";
import { supplierExists } from "../domain/suppliers/lookup.ts";
import { createCategory } from "../domain/library/categories.ts";
import { createQuestion, TEMP } from "../domain/library/questions.ts";
import { createQualification } from "../domain/library/qualifications.ts";
import { createSupplierRule } from "../domain/library/supplier-rules.ts";
import { SUPPLIER_TYPE } from "../../shared/status.ts";
import { seedTraffic } from "./traffic.ts";
import { wallClock } from "../domain/common/clock.ts";

export const DEMO_PASSWORD = "Samplex@2026";

/** One login per role: `<role>@samplex.demo` (lower case), password DEMO_PASSWORD. */
export const DEMO_USERS: { role: Role; firstName: string; lastName: string }[] = [
  { role: "SUPERADMIN", firstName: "Sophia", lastName: "Reyes" },
  { role: "ADMIN", firstName: "Arjun", lastName: "Mehta" },
  { role: "MANAGER", firstName: "Megan", lastName: "Clarke" },
  { role: "ACCOUNTANT", firstName: "Aiden", lastName: "Novak" },
  { role: "SUBSCRIBER", firstName: "Sarah", lastName: "Lindqvist" },
  { role: "APIMANAGER", firstName: "Priya", lastName: "Nair" },
  { role: "BDE", firstName: "Bruno", lastName: "Costa" },
  // tied to the first demo supplier (Opinion Harbor) once it exists
  { role: "SUPPLIER", firstName: "Hannah", lastName: "Brooks" },
];

export const demoEmail = (role: Role) => `${role.toLowerCase()}@samplex.demo`;

/** Market-research buyers across countries; some take work through an API integration. */
const DEMO_CLIENTS = [
  {
    clientName: "Northbridge Insights",
    countryId: "US",
    city: "Chicago",
    state: "Illinois",
    address1: "225 W Wacker Dr, Suite 1400",
    zipCode: "60606",
    clientContactName: "Laura Bennett",
    clientEmail: "projects@northbridge.example",
    clientPhoneNumber: "+1 312 555 0148",
    clientWebsite: "https://northbridge.example",
    netDays: 30,
    isApiIntegration: true,
    apiUrl: "https://api.northbridge.example/v2/surveys",
    apiKey: "nb-demo-key",
    apiHeader: '{"Accept": "application/json"}',
    variableMapping: "uid=[uid]\npid=[pid]",
  },
  {
    clientName: "Maple Leaf Research",
    countryId: "CA",
    city: "Toronto",
    state: "Ontario",
    address1: "100 King St W, Floor 21",
    zipCode: "M5X 1A9",
    clientContactName: "Owen Tremblay",
    clientEmail: "fieldwork@mapleleafresearch.example",
    clientPhoneNumber: "+1 416 555 0190",
    netDays: 45,
    wolfAccount: "wcanada",
  },
  {
    clientName: "Albion Market Analytics",
    countryId: "GB",
    city: "London",
    address1: "30 St Mary Axe",
    zipCode: "EC3A 8BF",
    clientContactName: "Charlotte Hughes",
    clientEmail: "ops@albionanalytics.example",
    clientPhoneNumber: "+44 20 7946 0321",
    netDays: 30,
    isApiIntegration: true,
    isScreenUrlIntegration: true,
    apiUrl: "https://connect.albionanalytics.example/feed",
    apiKey: "albion-demo-key",
  },
  {
    clientName: "Rheinwerk Marktforschung",
    countryId: "DE",
    city: "Cologne",
    address1: "Hohenzollernring 72",
    zipCode: "50672",
    clientContactName: "Jonas Weber",
    clientEmail: "feldarbeit@rheinwerk.example",
    netDays: 60,
  },
  {
    clientName: "Lumière Études",
    countryId: "FR",
    city: "Lyon",
    address1: "12 Rue de la République",
    zipCode: "69002",
    clientContactName: "Camille Laurent",
    clientEmail: "terrain@lumiere-etudes.example",
    netDays: 45,
  },
  {
    clientName: "Sakura Consumer Lab",
    countryId: "JP",
    city: "Tokyo",
    address1: "1-9-1 Marunouchi, Chiyoda-ku",
    zipCode: "100-0005",
    clientContactName: "Yuki Tanaka",
    clientEmail: "research@sakuralab.example",
    netDays: 30,
    isApiIntegration: true,
    apiUrl: "https://api.sakuralab.example/projects",
  },
  {
    clientName: "Southern Cross Research",
    countryId: "AU",
    city: "Sydney",
    state: "New South Wales",
    address1: "1 Macquarie Pl",
    zipCode: "2000",
    clientContactName: "Liam O'Connor",
    clientEmail: "projects@southerncross.example",
    netDays: 30,
  },
  {
    clientName: "Mumbai Metrics",
    countryId: "IN",
    city: "Mumbai",
    state: "Maharashtra",
    address1: "Bandra Kurla Complex, G Block",
    zipCode: "400051",
    clientContactName: "Ananya Iyer",
    clientEmail: "ops@mumbaimetrics.example",
    netDays: 90,
  },
  {
    clientName: "Cidade Pesquisa",
    countryId: "BR",
    city: "São Paulo",
    address1: "Av. Paulista, 1578",
    zipCode: "01310-200",
    clientContactName: "Rafael Souza",
    clientEmail: "campo@cidadepesquisa.example",
    netDays: 60,
    isActive: false,
  },
];

const redirects = (host: string) => ({
  redirectComplete: `https://${host}/complete?sid=[sid]`,
  redirectTerminate: `https://${host}/terminate?sid=[sid]`,
  redirectQuotaFull: `https://${host}/quotafull?sid=[sid]`,
  redirectQualityTerm: `https://${host}/quality?sid=[sid]`,
  redirectSurveyClose: `https://${host}/closed?sid=[sid]`,
});

/** Panels, DIY (1) and Local (2), with the redirects respondents are sent back on. */
const DEMO_SUPPLIERS = [
  {
    supplierName: "Opinion Harbor",
    supplierShortCode: "OPH",
    supplierType: SUPPLIER_TYPE.DIY,
    countryId: "US",
    city: "Austin",
    supplierEmail: "partners@opinionharbor.example",
    supplierPanelSize: 1_200_000,
    supplierRuleCPI: "1.5|2.5|3.5|5",
    ...redirects("panel.opinionharbor.example"),
    isPreScreen: true,
  },
  {
    supplierName: "PanelPulse UK",
    supplierShortCode: "PPUK",
    supplierType: SUPPLIER_TYPE.LOCAL,
    countryId: "GB",
    city: "Manchester",
    supplierEmail: "supply@panelpulse.example",
    supplierPanelSize: 450_000,
    supplierRuleCPI: "2|3|4.5|6",
    ...redirects("r.panelpulse.example"),
  },
  {
    supplierName: "SurveyNest Canada",
    supplierShortCode: "SNCA",
    supplierType: SUPPLIER_TYPE.LOCAL,
    countryId: "CA",
    city: "Montreal",
    supplierEmail: "ops@surveynest.example",
    supplierPanelSize: 300_000,
    supplierRuleCPI: "2.5|3.4|4|6",
    netDays: 45,
    ...redirects("go.surveynest.example"),
  },
  {
    supplierName: "VoxPop Panel",
    supplierShortCode: "VOX",
    supplierType: SUPPLIER_TYPE.DIY,
    countryId: "DE",
    city: "Berlin",
    supplierEmail: "team@voxpop.example",
    supplierPanelSize: 520_000,
    supplierRuleCPI: "2|3|4",
    ...redirects("panel.voxpop.example"),
  },
  {
    supplierName: "Insight Bees",
    supplierShortCode: "IBEE",
    supplierType: SUPPLIER_TYPE.LOCAL,
    countryId: "IN",
    city: "Bengaluru",
    supplierEmail: "sample@insightbees.example",
    supplierPanelSize: 900_000,
    supplierRuleCPI: "0.8|1.2|1.8",
    netDays: 60,
    ...redirects("hive.insightbees.example"),
  },
  {
    supplierName: "Respondia",
    supplierShortCode: "RSPD",
    supplierType: SUPPLIER_TYPE.DIY,
    countryId: "ES",
    city: "Madrid",
    supplierEmail: "hola@respondia.example",
    supplierPanelSize: 260_000,
    supplierRuleCPI: "1.8|2.6|3.6",
    ...redirects("panel.respondia.example"),
  },
  {
    supplierName: "QuickPoll Asia",
    supplierShortCode: "QPA",
    supplierType: SUPPLIER_TYPE.LOCAL,
    countryId: "SG",
    city: "Singapore",
    supplierEmail: "bd@quickpoll.example",
    supplierPanelSize: 640_000,
    supplierRuleCPI: "1.5|2.5|4",
    ...redirects("s.quickpoll.example"),
    isEmailNotification: false,
  },
  {
    supplierName: "Tribe Sample Australia",
    supplierShortCode: "TRIBE",
    supplierType: SUPPLIER_TYPE.LOCAL,
    countryId: "AU",
    city: "Melbourne",
    supplierEmail: "supply@tribesample.example",
    supplierPanelSize: 180_000,
    supplierRuleCPI: "3|4|5.5|7",
    ...redirects("tribe.tribesample.example"),
  },
  {
    supplierName: "Kiwi Voices",
    supplierShortCode: "KIWI",
    supplierType: SUPPLIER_TYPE.DIY,
    countryId: "NZ",
    city: "Auckland",
    supplierEmail: "hello@kiwivoices.example",
    supplierPanelSize: 75_000,
    supplierRuleCPI: "3.5|5|7",
    ...redirects("panel.kiwivoices.example"),
    isActive: false,
  },
];

const DEMO_CATEGORIES = [
  ["Consumer Goods", "FMCG, household and personal-care studies"],
  ["Healthcare", "Patients, caregivers and healthcare professionals"],
  ["B2B / IT Decision Makers", "Business buyers, IT and finance decision makers"],
  ["Automotive", "Car owners, intenders and dealership experience"],
  ["Financial Services", "Banking, insurance and investment customers"],
  ["Media & Entertainment", "Streaming, gaming, advertising recall and content testing"],
  ["Travel & Hospitality", "Leisure and business travellers, hotels and airlines"],
] as const;

const DEMO_QUESTIONS: {
  title: string;
  type: "TEXT" | "RADIO" | "DROPDOWN" | "CHECKBOX" | "MAP";
  options: string;
}[] = [
  { title: "What is your age?", type: "RADIO", options: "18-24\n25-34\n35-44\n45-54\n55-64\n65 or older" },
  { title: "What is your gender?", type: "RADIO", options: "Male\nFemale\nNon-binary\nPrefer not to say" },
  {
    title: "What is your annual household income before taxes?",
    type: "DROPDOWN",
    options: "Under $25,000\n$25,000 - $49,999\n$50,000 - $74,999\n$75,000 - $99,999\n$100,000 - $149,999\n" +
      "$150,000 or more\nPrefer not to say",
  },
  { title: "In which region do you live?", type: "MAP", options: "Northeast\nMidwest\nSouth\nWest" },
  {
    title: "What is your current employment status?",
    type: "RADIO",
    options:
      "Employed full-time\nEmployed part-time\nSelf-employed\nStudent\nRetired\nNot currently employed",
  },
  {
    title: "Which of these devices do you own?",
    type: "CHECKBOX",
    options: "Smartphone\nTablet\nLaptop\nDesktop computer\nSmart TV\nNone of these",
  },
  { title: "What is your ZIP or postal code?", type: "TEXT", options: "" },
];

const DEMO_QUALIFICATIONS: { name: string; icon: string; options: [string, string?][] }[] = [
  { name: "Age", icon: "cake", options: [["18-24"], ["25-34"], ["35-44"], ["45-54"], ["55-64"], ["65+"]] },
  { name: "Gender", icon: "users", options: [["Male"], ["Female"], ["Non-binary"]] },
  {
    name: "Household Income",
    icon: "wallet",
    options: [["Under $25k", "per year, before taxes"], ["$25k - $49k"], ["$50k - $99k"], ["$100k - $149k"], [
      "$150k+",
    ]],
  },
  { name: "Region", icon: "map", options: [["Northeast"], ["Midwest"], ["South"], ["West"]] },
  {
    name: "Employment Status",
    icon: "briefcase",
    options: [["Full-time"], ["Part-time"], ["Self-employed"], ["Student"], ["Retired"], ["Not employed"]],
  },
  {
    name: "Education",
    icon: "graduation-cap",
    options: [["High school or less"], ["Some college"], ["Bachelor's degree"], ["Postgraduate degree"]],
  },
];

const DEMO_RULES: [number, number, string][] = [
  [0.5, 1.5, "Gen pop, high incidence"],
  [1.5, 3, "Gen pop"],
  [3, 6, "Targeted consumer"],
  [6, 15, "B2B / healthcare professionals"],
];

export async function seedDemo(deps: Deps, opts: { now?: number } = {}): Promise<Record<string, number>> {
  // master data is made by the system, on the wall clock
  const system = { ...deps, actor: SYSTEM_ACTOR, now: wallClock };
  const counts: Record<string, number> = {
    users: 0,
    clients: 0,
    suppliers: 0,
    categories: 0,
    questions: 0,
    qualifications: 0,
    supplierRules: 0,
  };
  const ids = new Map<Role, string>();
  const addUser = async (u: (typeof DEMO_USERS)[number], supplierId: string | null) => {
    const created = await createUser(system, {
      ...u,
      email: demoEmail(u.role),
      phoneNumber: "",
      password: DEMO_PASSWORD,
      isActive: true,
      supplierId,
    }, supplierExists);
    ids.set(u.role, created._id);
    counts.users++;
  };
  for (const u of DEMO_USERS.filter((u) => u.role !== "SUPPLIER")) await addUser(u, null);

  const supplierIds: string[] = [];
  for (const s of DEMO_SUPPLIERS) {
    supplierIds.push(
      (await createSupplier(system, v.parse(SupplierForm, s)))._id,
    );
    counts.suppliers++;
  }
  for (const u of DEMO_USERS.filter((u) => u.role === "SUPPLIER")) await addUser(u, supplierIds[0]);

  const clientIds: string[] = [];
  for (const [i, c] of DEMO_CLIENTS.entries()) {
    const form = v.parse(ClientForm, {
      ...c,
      assignedTo: ids.get("BDE"),
      // API-integrated clients take sample from two panels
      supplierId: c.isApiIntegration ? [supplierIds[i % 3], supplierIds[3]] : [],
    });
    clientIds.push((await createClient(system, form))._id);
    counts.clients++;
  }

  for (const [categoryTitle, categoryDesc] of DEMO_CATEGORIES) {
    await createCategory(
      system,
      v.parse(CategoryForm, { categoryTitle, categoryDesc }),
    );
    counts.categories++;
  }
  for (const q of DEMO_QUESTIONS) {
    const form = v.parse(QuestionForm, {
      questionTitle: { en: q.title },
      questionType: q.type,
      questionOption: optionsFromLines(q.options),
    });
    await createQuestion(system, { ...form, scope: TEMP });
    counts.questions++;
  }
  const qualifications = new Map<string, Awaited<ReturnType<typeof createQualification>>>();
  for (const q of DEMO_QUALIFICATIONS) {
    const form = v.parse(QualificationForm, {
      qualificationName: q.name,
      qualificationIcon: q.icon,
      qualificationOptions: q.options.map(([text, subText]) => ({ text, subText: subText ?? "" })),
    });
    qualifications.set(q.name, await createQualification(system, form));
    counts.qualifications++;
  }
  for (const [minSupplierCpi, maxSupplierCpi, categoryTitle] of DEMO_RULES) {
    await createSupplierRule(
      system,
      v.parse(SupplierRuleForm, { minSupplierCpi, maxSupplierCpi, categoryTitle }),
    );
    counts.supplierRules++;
  }
  // projects across statuses with 90 days of respondent traffic through the router
  Object.assign(
    counts,
    await seedTraffic(deps, {
      clientIds,
      supplierIds,
      managerId: ids.get("MANAGER")!,
      qualifications,
      now: opts.now,
    }),
  );
  return counts;
}

/** Seeds demo data when the database has no users and SEED is not `none`. */
export async function seedIfEmpty(deps: Deps): Promise<Record<string, number> | null> {
  if (deps.env.SEED === "none") return null;
  const any = await deps.db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  if (any) return null;
  return await seedDemo(deps);
}
