/**
 * A supplier's API keys (issue 23): the keys a panel sends in `X-Api-Key` to `/supply/v1`. Staff who
 * edit suppliers manage any supplier's keys under `/admin/supplier/:id/api-keys`; a SUPPLIER user
 * manages its own supplier's under `/supplier/api-keys` (scoped on the server, never by an id sent).
 * A key is shown once, when created; lists show its name, visible prefix, dates and state, never the
 * key or its hash. Several keys may be active at once, so a rotation (create, switch, revoke) has no gap.
 */
import * as v from "valibot";
import { defineCall, returns } from "./contract.ts";
import { MAX_LEN, requiredText } from "../schemas/common.ts";

/** The header a panel sends its key in (never the URL). */
export const API_KEY_HEADER = "X-Api-Key";

export const API_KEY_STATES = ["active", "expired", "revoked"] as const;
export type ApiKeyState = (typeof API_KEY_STATES)[number];

/** A key as lists show it: never the key, never its hash. */
export type SupplierApiKey = {
  _id: string;
  supplierId: string;
  name: string;
  /** The key's first characters, to recognise it. */
  prefix: string;
  createdAt: string;
  createdBy: string;
  lastUsedAt: string | null;
  /** When it stops working (the end of its expiry date, UTC); null: never. */
  expiresAt: string | null;
  revokedAt: string | null;
  state: ApiKeyState;
};

/** A key just created: the only answer that carries the key itself. */
export type CreatedSupplierApiKey = SupplierApiKey & { key: string };

const EXPIRY_MSG = "Expiry date must be a date (yyyy-MM-dd)";
const keyName = requiredText("Key name is required", 1, MAX_LEN.name);

export const ApiKeyCreate = v.object({
  name: keyName,
  /** The last day the key works (yyyy-MM-dd, UTC); absent or blank: no expiry. */
  expiresOn: v.pipe(
    v.optional(v.nullable(v.string(EXPIRY_MSG)), ""),
    v.transform((s) => (s ?? "").trim()),
    v.maxLength(10, EXPIRY_MSG),
    v.check((s) => s === "" || (/^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s))), EXPIRY_MSG),
  ),
});
export type ApiKeyCreate = v.InferOutput<typeof ApiKeyCreate>;

export const ApiKeyRename = v.object({ name: keyName });
export type ApiKeyRename = v.InferOutput<typeof ApiKeyRename>;

// ---------------------------------------------------------------- staff (any supplier)

export const listSupplierApiKeysCall = defineCall({
  method: "GET",
  path: "/admin/supplier/:id/api-keys",
  ids: { id: "Supplier" },
  result: returns<SupplierApiKey[]>(),
});
export const createSupplierApiKeyCall = defineCall({
  method: "POST",
  path: "/admin/supplier/:id/api-keys",
  ids: { id: "Supplier" },
  body: ApiKeyCreate,
  result: returns<CreatedSupplierApiKey>(),
});
export const renameSupplierApiKeyCall = defineCall({
  method: "PUT",
  path: "/admin/supplier/:id/api-keys/:keyId",
  ids: { id: "Supplier" },
  body: ApiKeyRename,
  result: returns<SupplierApiKey>(),
});
export const revokeSupplierApiKeyCall = defineCall({
  method: "POST",
  path: "/admin/supplier/:id/api-keys/:keyId/revoke",
  ids: { id: "Supplier" },
  result: returns<SupplierApiKey>(),
});

// ---------------------------------------------------------------- portal (the user's own supplier)

export const listPortalApiKeysCall = defineCall({
  method: "GET",
  path: "/supplier/api-keys",
  result: returns<SupplierApiKey[]>(),
});
export const createPortalApiKeyCall = defineCall({
  method: "POST",
  path: "/supplier/api-keys",
  body: ApiKeyCreate,
  result: returns<CreatedSupplierApiKey>(),
});
export const renamePortalApiKeyCall = defineCall({
  method: "PUT",
  path: "/supplier/api-keys/:keyId",
  body: ApiKeyRename,
  result: returns<SupplierApiKey>(),
});
export const revokePortalApiKeyCall = defineCall({
  method: "POST",
  path: "/supplier/api-keys/:keyId/revoke",
  result: returns<SupplierApiKey>(),
});
