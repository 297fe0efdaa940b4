/** Pick lists shared by the master-data screens: where their options come from and how they read. */
import type { OptionsSource } from "../../components/data-grid/types.ts";
import { clientOptionsCall } from "../../../../shared/api/clients.ts";
import { supplierOptionsCall } from "../../../../shared/api/suppliers.ts";

type Country = { _id?: string; value?: string; code?: string; label?: string; flag?: string };
type Named = { _id?: string; value?: string; label?: string };

/**
 * GET /admin/countries: ISO codes; the label is the name (typing its first letters finds it) and the
 * flag emoji leads it (kept as text here: options are cached data; CountryField draws it as a flag).
 */
export const COUNTRIES: OptionsSource = {
  path: "/admin/countries",
  map: (c: Country) => ({
    value: String(c.code ?? c.value ?? c._id ?? ""),
    label: String(c.label ?? c.code),
    ...(c.flag ? { adornment: c.flag } : {}),
  }),
};

/** ISO 639-1 languages (GET /admin/languages): the code is the value, the English name the label. */
export const LANGUAGES: OptionsSource = {
  path: "/admin/languages",
  map: (l: Named) => ({ value: String(l._id ?? l.value ?? ""), label: String(l.label ?? l._id) }),
};

/** Active suppliers (GET /admin/suppliers/all). */
export const SUPPLIERS: OptionsSource = {
  call: supplierOptionsCall,
  map: (s: Named & { supplierName?: string }) => ({
    value: String(s._id ?? s.value ?? ""),
    label: String(s.supplierName ?? s.label ?? s._id),
  }),
};

/** Active clients (GET /admin/clients/all). */
export const CLIENTS: OptionsSource = {
  call: clientOptionsCall,
  map: (c: Named & { clientName?: string }) => ({
    value: String(c._id ?? c.value ?? ""),
    label: String(c.clientName ?? c.label ?? c._id),
  }),
};

/** Users with role BDE, the choices of a client's Assigned To (GET /admin/users/role/bde). */
export const BDE_USERS: OptionsSource = {
  path: "/admin/users/role/bde",
  map: (u: Named & { email?: string }) => ({
    value: String(u._id ?? u.value ?? ""),
    label: u.email ? `${u.label} (${u.email})` : String(u.label ?? u._id),
  }),
};
