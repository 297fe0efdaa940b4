/** Row types of the master-data tables (clients, suppliers, library, e-mail outbox). Booleans are 0/1. */
import type { ColumnType } from "kysely";
export interface ClientsTable {
  id: string;
  clientName: string;
  clientCode: string;
  clientContactName: string;
  clientPhoneNumber: string;
  clientEmail: string;
  clientWebsite: string;
  /** ISO alpha-2 code. */
  countryId: string;
  city: string;
  state: string;
  company: string;
  /** The client's tax id (VAT, GSTIN, EIN, ...), printed on its invoices. */
  taxId: ColumnType<string, string | undefined, string>;
  address1: string;
  address2: string;
  zipCode: string;
  netDays: number;
  wolfAccount: string;
  apiUrl: string;
  apiKey: string;
  apiHeader: string;
  apiFunctionHeader: string;
  apiBody: string;
  apiResponseVar: string;
  apiFunction: string;
  apiParams: string;
  variableMapping: string;
  identifierMapping: string;
  /** JSON list of supplier ids (the API field `supplierId`). */
  supplierIds: string;
  clientApiKey: string;
  isApiIntegration: number;
  isScreenUrlIntegration: number;
  assignedTo: string | null;
  isActive: number;
  isDeleted: number;
  createdAt: string;
  updatedAt: string;
}

export interface SuppliersTable {
  id: string;
  /** 1 DIY, 2 Local. */
  supplierType: number;
  supplierName: string;
  supplierShortCode: string;
  supplierPhoneNumber: string;
  supplierEmail: string;
  supplierWebsite: string;
  countryId: string;
  city: string;
  state: string;
  company: string;
  address1: string;
  address2: string;
  zipCode: string;
  netDays: number;
  apiClientId: string;
  hashKey: string;
  supplierPanelSize: number | null;
  supplierRuleCPI: string;
  supplierApiKey: string;
  apiBody: string;
  apiKey: string;
  apiUrl: string;
  apiHeader: string;
  variableMapping: string;
  identifierMapping: string;
  redirectComplete: string;
  redirectQuotaFull: string;
  redirectTerminate: string;
  redirectQualityTerm: string;
  redirectSurveyClose: string;
  /** JSON list of client ids (the API field `clientId`). */
  clientIds: string;
  isEmailNotification: number;
  isPreScreen: number;
  supplierApprovedHook: string;
  /** Why the outbound client refused the hook ('' while none is refused); cleared by a send or a new hook. */
  approvedHookRefusal: ColumnType<string, string | undefined, string>;
  approvedHookRefusedAt: ColumnType<string | null, string | null | undefined, string | null>;
  /** Callback URLs per event besides the complete's (supplierApprovedHook), migration 0036; '' none. */
  callbackTerminate: ColumnType<string, string | undefined, string>;
  callbackOverQuota: ColumnType<string, string | undefined, string>;
  callbackQualityTerm: ColumnType<string, string | undefined, string>;
  callbackReconcile: ColumnType<string, string | undefined, string>;
  /** The supplier opts in to routing of its refused respondents (migration 0039). */
  allowRouting: ColumnType<number, number | undefined, number>;
  isActive: number;
  isDeleted: number;
  createdAt: string;
  updatedAt: string;
}

export interface CategoriesTable {
  id: string;
  categoryTitle: string;
  categoryDesc: string;
  isActive: number;
  isDeleted: number;
  createdAt: string;
  updatedAt: string;
}

export interface QuestionsTable {
  id: string;
  projectId: string | null;
  isTempQuestion: number;
  languageId: string;
  /** JSON map language -> title. */
  questionTitle: string;
  questionType: string;
  /** JSON list of options in display order. */
  questionOption: string;
  sortOrder: number;
  isActive: number;
  isDeleted: number;
  createdAt: string;
  updatedAt: string;
  /** The library question a project's question was copied from (profiles match answers by it). */
  libraryQuestionId: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface QualificationsTable {
  id: string;
  qualificationName: string;
  qualificationKey: string;
  qualificationIcon: string;
  isActive: number;
  isDeleted: number;
  createdAt: string;
  updatedAt: string;
}

export interface QualificationOptionsTable {
  id: string;
  qualificationId: string;
  text: string;
  subText: string;
  isActive: number;
  isDeleted: number;
  sortOrder: number;
}

export interface SupplierRulesTable {
  id: string;
  minSupplierCpi: number;
  maxSupplierCpi: number;
  categoryTitle: string;
  isActive: number;
  isDeleted: number;
  createdAt: string;
  updatedAt: string;
}

export type EmailStatus = "queued" | "sending" | "sent" | "failed" | "cancelled";

export interface EmailOutboxTable {
  id: string;
  toAddress: string;
  subject: string;
  bodyHtml: string;
  bodyText: string;
  status: EmailStatus;
  attempts: number;
  lastError: string;
  module: string;
  recordId: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  /** JSON [{ filename, contentType, content (base64) }] (migration 0008). */
  attachments: ColumnType<string, string | undefined, string>;
}

/** A supplier's API key (migration 0032): the SHA-256 of the key, never the key. */
export interface SupplierApiKeysTable {
  id: string;
  supplierId: string;
  name: string;
  keyHash: string;
  /** The key's first characters, shown to recognise it. */
  prefix: string;
  createdAt: string;
  /** Who created it (a user's name, "CLI", "Migration"). */
  createdBy: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface MasterTables {
  clients: ClientsTable;
  suppliers: SuppliersTable;
  supplier_api_keys: SupplierApiKeysTable;
  categories: CategoriesTable;
  questions: QuestionsTable;
  qualifications: QualificationsTable;
  qualification_options: QualificationOptionsTable;
  supplier_rules: SupplierRulesTable;
  email_outbox: EmailOutboxTable;
}
