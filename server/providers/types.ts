/**
 * The one interface every external provider's adapter implements, and what it is configured with.
 * The adapters speak their provider's own shape over HTTP and answer in the common offer model
 * (`shared/api/providers.ts`); nothing outside `server/providers/` sees a provider's shape.
 */
import type {
  ExternalOffer,
  OfferQualification,
  OfferQuota,
  ProviderKey,
  TolunaQuestion,
  TolunaQuotaDetails,
} from "../../shared/api/providers.ts";

export type OfferFilters = {
  /** ISO alpha-2, upper case; absent: every country the provider offers. */
  countryCode?: string;
  /** A case-insensitive part of the title or the survey id. */
  search?: string;
};

export type ProviderConfig = {
  key: ProviderKey;
  /** Base URL, without a trailing slash. */
  url: string;
  apiKey: string;
  /** The built-in stand-in (labelled "Sandbox" wherever it shows). */
  sandbox: boolean;
  /** Toluna: the panel GUID and the partner key of its reference data. */
  panel?: string;
  partnerKey?: string;
  /** Each attempt's time-out (default 10 s). */
  timeoutMs?: number;
  /** Attempts of an idempotent read (default 3). */
  attempts?: number;
  /** First back-off between attempts, doubled after each (default 300 ms). */
  backoffMs?: number;
  /** The fetch to use (tests). */
  fetch?: typeof fetch;
};

/** An offer without the import state (the domain adds it). */
export type Offer = Omit<ExternalOffer, "imported">;

export interface ProviderAdapter {
  readonly key: ProviderKey;
  readonly name: string;
  readonly config: ProviderConfig;
  /** Every open offer matching the filters (all pages of the provider's answer). */
  listOffers(filters: OfferFilters): Promise<Offer[]>;
  /** One offer by its survey id, or null when the provider no longer offers it. */
  getOffer(surveyId: string): Promise<Offer | null>;
  /** Quotas of one survey fetched on their own (Logit by project id, UniMrkt by survey id). */
  quotasOf?(surveyId: string): Promise<OfferQuota[]>;
  /** Qualifications of one survey fetched on their own (UniMrkt). */
  qualificationsOf?(surveyId: string): Promise<OfferQualification[]>;
  /** Toluna: a quota's details, on demand. */
  quotaDetails?(quotaId: string): Promise<TolunaQuotaDetails>;
  /** Toluna: the reference data of questions, on demand. */
  questions?(questionIds: string[]): Promise<TolunaQuestion[]>;
}
