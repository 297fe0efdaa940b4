/** External import pages (part 2): the five providers' tabs and their grids over shared/api/providers.ts. */
import type { ListDecl } from "../../components/data-grid/types.ts";
import type { PageTab } from "../../components/layout/PageHeader.tsx";
import {
  type ExternalOffer,
  externalOffersList,
  type ExternalProjectItem,
  mappingsList,
  OFFER_LISTS,
  type ProviderMapping,
} from "../../../../shared/api/providers.ts";
import type { ProviderKey } from "../../../../shared/schemas/providers.ts";
import { CLIENTS } from "../../lib/lookups.ts";

export type { ExternalOffer, ExternalProjectItem, ProviderKey };

/** The numbered tabs 1 to 5, in the spec's order, with their routes and labels. */
export const PROVIDER_TABS: { key: ProviderKey; to: string; label: string }[] = [
  { key: "precision", to: "/admin/api", label: "1. Precision" },
  { key: "logit", to: "/admin/api/logit", label: "2. Logit" },
  { key: "toluna", to: "/admin/api/toluna", label: "3. Toulna" },
  { key: "circle", to: "/admin/api/circle", label: "4. Circle" },
  { key: "mrkt", to: "/admin/api/mrkt", label: "5. UniMrkt" },
];
/** The provider tabs, then the mappings of their questions and answers to the library. */
export const providerTabs: PageTab[] = [
  ...PROVIDER_TABS.map((t) => ({ label: t.label, to: t.to, end: true })),
  { label: "Mappings", to: "/admin/api/mappings", end: true },
];
export const providerOfPath = (path: string): ProviderKey =>
  PROVIDER_TABS.find((t) => t.to === path.replace(/\/+$/, ""))?.key ?? "precision";

const COUNTRY_OPTIONS = ["US", "GB", "CA", "DE", "FR", "AU", "IN"].map((c) => ({ value: c, label: c }));

/**
 * The country filter a tab opens with (part 2, External import pages: a fixed country for
 * Precision, Logit and Toluna; Circle, and UniMrkt, which the spec leaves out, start with none).
 */
export const DEFAULT_COUNTRY: Record<ProviderKey, string | undefined> = {
  precision: "US",
  logit: "US",
  toluna: "US",
  circle: undefined,
  mrkt: undefined,
};

export const offersDecl = (key: ProviderKey): ListDecl<ExternalOffer, "countryCode"> => ({
  list: OFFER_LISTS[key],
  id: `offers-${key}`,
  rowId: (o) => o._id,
  defaultPageSize: 20,
  pageSizes: [20],
  pageParam: "p",
  exportName: "Projects",
  filters: [
    {
      kind: "select",
      key: "countryCode",
      label: "Country",
      options: COUNTRY_OPTIONS,
      defaultValue: DEFAULT_COUNTRY[key],
    },
    { kind: "export" },
  ],
});

/**
 * Projects External (part 1, 2.6): every configured provider's offers, 20 a page in `p`; filters
 * provider, country, clientdiy (the client the offers are for: what is free to import for it, and
 * the add dialog's client) and export.
 */
export const externalOffersDecl: ListDecl<ExternalOffer, "provider" | "countryCode" | "clientdiy"> = {
  list: externalOffersList,
  id: "external-offers",
  rowId: (o) => o._id,
  defaultPageSize: 20,
  pageSizes: [20],
  pageParam: "p",
  exportName: "Projects",
  filters: [
    {
      kind: "select",
      key: "provider",
      label: "Provider",
      multiple: true,
      options: PROVIDER_TABS.map((t) => ({ value: t.key, label: t.label.slice(3) })),
    },
    { kind: "select", key: "countryCode", label: "Country", options: COUNTRY_OPTIONS },
    { kind: "select", key: "clientdiy", label: "Client", source: CLIENTS },
    { kind: "export" },
  ],
};

/** The mappings screen: by provider, searchable, exported as "Mappings". */
export const mappingsDecl: ListDecl<ProviderMapping, "provider" | "qualificationId"> = {
  list: mappingsList,
  rowId: (m) => m._id,
  defaultPageSize: 20,
  pageParam: "p",
  filters: [
    { kind: "search", placeholder: "Search questions", hint: "Searches question id and name, qualification" },
    {
      kind: "select",
      key: "provider",
      label: "Provider",
      multiple: true,
      options: PROVIDER_TABS.map((t) => ({ value: t.key, label: t.label.slice(3) })),
    },
    { kind: "export" },
  ],
};

/** A small CSV of rows (the dialogs' exports, named Quotas and Questions). */
export function csvBlob(header: string[], rows: unknown[][]): Blob {
  const cell = (v: unknown) => {
    let s = v === null || v === undefined ? "" : String(v);
    if (/^[=+\-@]/.test(s)) s = `'${s}`;
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return new Blob([[header, ...rows].map((r) => r.map(cell).join(",")).join("\n") + "\n"], {
    type: "text/csv",
  });
}
