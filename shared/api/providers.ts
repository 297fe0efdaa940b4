/**
 * External providers (part 1: 2.6 Projects External and the External offer entity; part 2: the
 * import pages and the External providers calls): the one offer shape every provider's adapter
 * maps its own answer to, the calls, and the lists.
 */
import { defineCall, returns } from "./contract.ts";
import { defineList, ListBody, type ListDeclaration, type ListResult } from "../list.ts";
import {
  AddOfferBody,
  ExternalAddBody,
  LogitQuotaBody,
  MappingUpdateBody,
  MrktQuotaBody,
  OfferListBody,
  type ProviderKey,
  TolunaQuestionsBody,
  TolunaQuotaBody,
} from "../schemas/providers.ts";
import { moneyCell } from "../format.ts";

export type { ProviderKey };

/** One targeting condition of a quota: a provider question and the answers it takes. */
export type OfferCondition = {
  questionId: string;
  /** The question's name where the provider gives one, else its id. */
  questionName: string;
  answerIds: string[];
  /** The answers' labels, in the order of answerIds (the id where the provider gives no label). */
  answers: string[];
  /** The quota takes any answer of the question but these (Logit's LogicalOperator NOT). */
  excluded?: boolean;
};

/** A quota of an offer (a Toluna sub-quota, a Logit survey quota, a Circle or UniMrkt quota, ...). */
export type OfferQuota = {
  quotaId: string;
  /** The provider's enclosing quota where it nests them (Toluna: the QuotaID of a sub-quota). */
  parentQuotaId: string | null;
  required: number;
  remaining: number;
  completes: number;
  conditions: OfferCondition[];
};

/** A qualification (targeting question) of an offer. */
export type OfferQualification = {
  questionId: string;
  name: string;
  answerIds: string[];
  answers: string[];
  isRoutable: boolean;
};

/** What the project made from an offer is. */
export type ImportedAs = { projectId: string; projectCode: string; groupProjectId: string };

/** The normalized external offer (part 1 "External offer", part 2 "External survey"). */
export type ExternalOffer = {
  _id: string;
  provider: ProviderKey;
  surveyId: string;
  title: string;
  countryCode: string;
  /** Completes the buyer wants in all (the spec's total_completes or requirement). */
  totalCompletes: number;
  remaining: number;
  currentCompletes: number;
  ir: number;
  loi: number;
  device: string;
  /** The reward per complete (the spec's reward / cpi). */
  cpi: number;
  currency: string;
  /** yyyy-MM-dd, or null when the provider gives none. */
  endDate: string | null;
  quotas: OfferQuota[];
  qualifications: OfferQualification[];
  /** The provider's own ids, for traceability (WaveID, buyer id, ...). */
  rawIds: Record<string, string>;
  /** The offer came from the built-in stand-in, not the real provider. */
  sandbox: boolean;
  /** The project it was imported as, if it was. */
  imported: ImportedAs | null;
};

/** Whether a provider is connected, and to what (the tab's header). */
export type ProviderState = {
  provider: ProviderKey;
  name: string;
  configured: boolean;
  sandbox: boolean;
  /** Why it is not configured, or that it is the sandbox. */
  note: string;
};

/** An offer page: the grid's page plus the provider's state. */
export type OfferPage = ListResult<ExternalOffer> & { provider?: ProviderState };

/** Toluna's quota details, on demand (quota ID, required completes, remaining completes). */
export type TolunaQuotaDetails = {
  quotaId: string;
  surveyId: string;
  completesRequired: number;
  completesRemaining: number;
  layers: { layerId: string; subQuotas: OfferQuota[] }[];
};

/** A Toluna question's reference data (QuestionID, AnswerIDs, IsRoutable, InternalName, TranslatedAnswers). */
export type TolunaQuestion = {
  QuestionID: string;
  AnswerIDs: string[];
  IsRoutable: boolean;
  InternalName: string;
  QuestionText: string;
  AnswerType: string;
  TranslatedAnswers: { AnswerID: string; Translation: string; AnswerInternalName: string }[];
};

/** A row of the Projects External tab: what was imported, from where, and how it stands now. */
export type ExternalProjectItem = {
  _id: string;
  provider: ProviderKey;
  providerName: string;
  surveyId: string;
  title: string;
  countryCode: string;
  projectId: string;
  projectCode: string;
  projectName: string;
  projectStatus: number;
  groupProjectId: string;
  clientId: string;
  clientName: string;
  cpi: number;
  remaining: number;
  loi: number;
  ir: number;
  sampleSize: number;
  complete: number;
  endDate: string | null;
  /** open, closed (quota full at the provider) or vanished (no longer offered). */
  offerState: string;
  sandbox: boolean;
  lastCheckedAt: string | null;
  createdAt: string;
};

/** What an add-as-project answers: the two projects made, and the offer as imported. */
export type ImportResult = {
  projectId: string;
  projectCode: string;
  groupProjectId: string;
  groupProjectCode: string;
  quotas: number;
  qualifications: number;
};

// ---------------------------------------------------------------- calls

const offerCall = <P extends string>(path: P) =>
  defineCall({ method: "POST", path, body: OfferListBody, csv: true, result: returns<OfferPage>() });

export const precisionOffers = offerCall("/admin/project/api/precision/request");
export const circleOffers = offerCall("/admin/project/api/circle/request");
export const logitOffers = offerCall("/admin/project/api/logit/request");
export const tolunaOffers = offerCall("/admin/project/api/toluna/request");
export const mrktOffers = offerCall("/admin/project/api/mrkt/request");

export const logitQuotas = defineCall({
  method: "POST",
  path: "/admin/project/api/logit/quota/all",
  body: LogitQuotaBody,
  result: returns<OfferQuota[]>(),
});
export const tolunaQuotaDetails = defineCall({
  method: "POST",
  path: "/admin/project/api/toluna/quota/all",
  body: TolunaQuotaBody,
  result: returns<TolunaQuotaDetails>(),
});
export const tolunaQuestions = defineCall({
  method: "POST",
  path: "/admin/project/api/toluna/questions/all",
  body: TolunaQuestionsBody,
  result: returns<TolunaQuestion[]>(),
});
export const mrktQuotas = defineCall({
  method: "POST",
  path: "/admin/project/api/mrkt/quota/all",
  body: MrktQuotaBody,
  result: returns<OfferQuota[]>(),
});

const addCall = <P extends string>(path: P) =>
  defineCall({ method: "POST", path, body: AddOfferBody, result: returns<ImportResult>() });

export const addPrecisionOffer = addCall("/admin/project/precision/api/add");
export const addLogitOffer = addCall("/admin/project/logit/api/add");
export const addCircleOffer = addCall("/admin/project/circle/api/add");
export const addMrktOffer = addCall("/admin/project/mrkt/api/add");
export const addTolunaOffer = addCall("/admin/project/toluna/api/add");

export const listExternalProjects = defineCall({
  method: "POST",
  path: "/admin/project/external/list",
  body: ListBody,
  csv: true,
  result: returns<ListResult<ExternalProjectItem>>(),
});
export const addExternalProject = defineCall({
  method: "POST",
  path: "/admin/project/external/add",
  body: ExternalAddBody,
  result: returns<ImportResult>(),
});

/** Each provider's calls, by key. */
export const PROVIDER_CALLS = {
  precision: { offers: precisionOffers, add: addPrecisionOffer },
  logit: { offers: logitOffers, add: addLogitOffer },
  toluna: { offers: tolunaOffers, add: addTolunaOffer },
  circle: { offers: circleOffers, add: addCircleOffer },
  mrkt: { offers: mrktOffers, add: addMrktOffer },
} as const;

// ---------------------------------------------------------------- mappings

/** A provider answer and the library option it is linked to (null: unlinked). */
export type MappedAnswer = {
  answerId: string;
  /** The provider's label of the answer (its id where none is known). */
  answerText: string;
  optionId: string | null;
  optionText: string | null;
};

/** A provider question linked to a library qualification (the mappings screen's row). */
export type ProviderMapping = {
  _id: string;
  provider: ProviderKey;
  providerName: string;
  questionId: string;
  questionName: string;
  qualificationId: string;
  qualificationName: string;
  answers: MappedAnswer[];
  /** The qualification's options an answer can be linked to. */
  options: { _id: string; text: string }[];
  /** Imports of this provider whose projects ask the question. */
  imports: number;
  updatedAt: string;
};

/** What a correction changed: the link, and each imported live project re-mapped or left as it was. */
export type MappingChange = {
  mapping: ProviderMapping;
  changes: string[];
  remapped: { projectId: string; projectCode: string }[];
  unchanged: { projectId: string; projectCode: string; reason: string }[];
};

export const listMappings = defineCall({
  method: "POST",
  path: "/admin/project/api/mappings/list",
  body: ListBody,
  csv: true,
  result: returns<ListResult<ProviderMapping>>(),
});
export const updateMapping = defineCall({
  method: "PUT",
  path: "/admin/project/api/mappings/:id",
  ids: { id: "Mapping" },
  body: MappingUpdateBody,
  result: returns<MappingChange>(),
});

/** The mappings screen: provider questions with their links (CSV "Mappings"). */
export const mappingsList = defineList<ProviderMapping>()({
  id: "Mappings",
  call: listMappings,
  filters: { provider: "texts", qualificationId: "texts" },
  sorts: ["questionId", "updatedAt"],
  columns: [
    { key: "providerName", header: "Provider", value: (r) => r.providerName },
    { key: "questionId", header: "Question ID", value: (r) => r.questionId },
    { key: "questionName", header: "Question", value: (r) => r.questionName },
    { key: "qualificationName", header: "Library qualification", value: (r) => r.qualificationName },
    {
      key: "answers",
      header: "Answers",
      value: (r) =>
        r.answers.map((a) => `${a.answerText} (${a.answerId}) -> ${a.optionText ?? "unlinked"}`).join("; "),
    },
    { key: "imports", header: "Imports", value: (r) => r.imports },
  ],
});

// ---------------------------------------------------------------- lists

/** yyyy-MM-dd as dd/MM/yyyy (the spec's end_date). */
const endDateCell = (
  d: string | null,
) => (d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? d.split("-").reverse().join("/") : "");

/** The offers of one provider's tab (its CSV is the file "Projects"). */
export const offerColumns = [
  { key: "title", header: "Title", value: (r: ExternalOffer) => r.title },
  { key: "surveyId", header: "ID", value: (r: ExternalOffer) => r.surveyId },
  { key: "countryCode", header: "Country", value: (r: ExternalOffer) => r.countryCode },
  { key: "remaining", header: "Requirement", value: (r: ExternalOffer) => r.remaining },
  { key: "currentCompletes", header: "Current completes", value: (r: ExternalOffer) => r.currentCompletes },
  { key: "ir", header: "IR", value: (r: ExternalOffer) => r.ir },
  { key: "loi", header: "LOI", value: (r: ExternalOffer) => r.loi },
  { key: "device", header: "Device", value: (r: ExternalOffer) => r.device },
  { key: "cpi", header: "Reward", value: (r: ExternalOffer) => moneyCell(r.cpi) },
  { key: "quotas", header: "Quotas", value: (r: ExternalOffer) => r.quotas.length },
  { key: "qualifications", header: "Qualifications", value: (r: ExternalOffer) => r.qualifications.length },
  { key: "endDate", header: "End date", value: (r: ExternalOffer) => endDateCell(r.endDate) },
];

const offerList = (call: ListDeclaration<ExternalOffer>["call"]) =>
  defineList<ExternalOffer>()({
    id: "Projects",
    call,
    filters: { countryCode: "text" },
    sorts: [],
    columns: offerColumns,
  });

export const OFFER_LISTS = {
  precision: offerList(precisionOffers),
  logit: offerList(logitOffers),
  toluna: offerList(tolunaOffers),
  circle: offerList(circleOffers),
  mrkt: offerList(mrktOffers),
} as const;

/** Projects External (2.6, /admin/project/fetch): what was imported and from where. */
export const externalProjectsList = defineList<ExternalProjectItem>()({
  id: "external-projects",
  call: listExternalProjects,
  filters: { provider: "texts", offerState: "texts", clientId: "texts" },
  sorts: ["createdAt", "provider", "projectCode"],
  columns: [
    { key: "projectCode", header: "Project code", value: (r) => r.projectCode },
    { key: "projectName", header: "Project name", value: (r) => r.projectName },
    {
      key: "providerName",
      header: "Provider",
      value: (r) => r.providerName + (r.sandbox ? " (Sandbox)" : ""),
    },
    { key: "surveyId", header: "Survey ID", value: (r) => r.surveyId },
    { key: "countryCode", header: "Country", value: (r) => r.countryCode },
    { key: "clientName", header: "Client", value: (r) => r.clientName },
    { key: "cpi", header: "CPI", value: (r) => moneyCell(r.cpi) },
    { key: "remaining", header: "Remaining", value: (r) => r.remaining },
    { key: "complete", header: "Complete", value: (r) => r.complete },
    { key: "offerState", header: "Offer", value: (r) => r.offerState },
    { key: "endDate", header: "End date", value: (r) => endDateCell(r.endDate) },
  ],
});
