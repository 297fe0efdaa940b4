/**
 * Accounts (part 2: 2 "Accounts", 3, 4, 5, 7 "Accounts"): Ready To Invoice and Archieved projects,
 * invoices to clients, purchase orders to suppliers, supplier finances, the issuing companies. The
 * calls, the records they answer with, and the lists.
 */
// the area's contracts, one file a sub-area (the OpenAPI document and the web import them from here)
export type { RefUploadResult } from "./accounts/common.ts";
export * from "./accounts/issuers.ts";
export * from "./accounts/projects.ts";
export * from "./accounts/invoices.ts";
export * from "./accounts/purchase-orders.ts";
export * from "./accounts/finances.ts";
