/** Row types of the external imports (migration 0013). */
import type { ColumnType } from "kysely";

type D<T> = ColumnType<T, T | undefined, T>;

export interface OfferImportsTable {
  id: string;
  provider: string;
  surveyId: string;
  groupProjectId: string;
  projectId: string;
  title: string;
  countryCode: D<string>;
  cpi: D<number>;
  remaining: D<number>;
  loi: D<number>;
  ir: D<number>;
  endDate: D<string | null>;
  /** open | closed | vanished */
  offerState: D<string>;
  sandbox: D<number>;
  /** JSON: the provider's raw ids. */
  rawIds: D<string>;
  /** JSON [{ quotaId, projectQuotaId, optionIds }]: which project quota cells a provider quota fills. */
  quotaMap: D<string>;
  /** JSON OfferData: the provider's questions and quotas as imported (migration 0017). */
  offerData: D<string>;
  createdBy: D<string | null>;
  createdAt: string;
  updatedAt: string;
  lastCheckedAt: D<string | null>;
}

export interface ProviderQuestionsTable {
  id: string;
  provider: string;
  questionId: string;
  /** The provider's name of the question ("" before migration 0017). */
  questionName: D<string>;
  qualificationId: string;
  /** JSON [{ answerId, optionId, text? }] (optionId null: staff unlinked the answer; text: the provider's label). */
  answers: D<string>;
  createdAt: string;
  updatedAt: string;
}

export interface ImportTables {
  offer_imports: OfferImportsTable;
  provider_questions: ProviderQuestionsTable;
}
