/** Pick lists shared by the master-data screens: where their options come from and how they read. */
import type { OptionsSource } from "../components/data-grid/types.ts";
import { type SupplierOption, supplierOptionsCall } from "../../../shared/api/suppliers.ts";
import { type ClientOption, clientOptionsCall } from "../../../shared/api/clients.ts";
import { bdeUserOptions, type UserOption } from "../../../shared/api/users.ts";
import {
  countriesCall,
  type Country,
  type LanguageOption,
  languagesCall,
} from "../../../shared/api/lookups.ts";

/**
 * GET /admin/countries: ISO codes; the label is the name (typing its first letters finds it) and the
 * flag emoji leads it (kept as text here: options are cached data; CountryField draws it as a flag).
 */
export const COUNTRIES: OptionsSource = {
  call: countriesCall,
  map: (c: Pick<Country, "_id" | "code" | "label" | "flag">) => ({
    value: String(c.code || c._id || ""),
    label: String(c.label ?? c.code),
    ...(c.flag ? { adornment: c.flag } : {}),
  }),
};

/** ISO 639-1 languages (GET /admin/languages): the code is the value, the English name the label. */
export const LANGUAGES: OptionsSource = {
  call: languagesCall,
  map: (l: LanguageOption) => ({ value: l._id, label: l.label || l._id }),
};

/** Active suppliers (GET /admin/suppliers/all). */
export const SUPPLIERS: OptionsSource = {
  call: supplierOptionsCall,
  map: (s: SupplierOption) => ({ value: s._id, label: s.supplierName || s.label || s._id }),
};

/** Active clients (GET /admin/clients/all). */
export const CLIENTS: OptionsSource = {
  call: clientOptionsCall,
  map: (c: ClientOption) => ({ value: c._id, label: c.clientName || c.label || c._id }),
};

/** Users with role BDE, the choices of a client's Assigned To (GET /admin/users/role/bde). */
export const BDE_USERS: OptionsSource = {
  call: bdeUserOptions,
  map: (u: UserOption) => ({ value: u._id, label: u.email ? `${u.label} (${u.email})` : u.label || u._id }),
};
