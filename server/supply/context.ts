/** The supply sub-app's context: the app's, with the key's supplier (set by requireSupplierKey, ./app.ts). */
import type { AppEnv } from "../http/context.ts";
import type { KeySupplier } from "../domain/suppliers/api-keys.ts";

export type SupplyEnv = { Variables: AppEnv["Variables"] & { supplier: KeySupplier } };
