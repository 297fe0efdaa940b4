/**
 * Operations calls for the Support area: the scheduled backups (SUPPORT_LOG roles) and the API
 * reference rendered in the app (APIMANAGER, SUPERADMIN). The reference itself is also served raw,
 * without a session, at /api/v1/openapi.json for integrators' tools.
 */
import { defineCall, returns } from "./contract.ts";

export type BackupFileInfo = { name: string; bytes: number; createdAt: string };
export type BackupsOverview = {
  /** BACKUP_DIR, or null when scheduled backups are off. */
  dir: string | null;
  everyHours: number | null;
  keep: number;
  /** Why there are none: off, or the database is not a file. */
  note: string;
  backups: BackupFileInfo[];
};

export const listBackupsCall = defineCall({
  method: "GET",
  path: "/admin/support/backups",
  result: returns<BackupsOverview>(),
});

/** A JSON Schema object as the reference carries it. */
export type JsonSchemaObject = { [key: string]: unknown };
export type ApiOperation = {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  /** The roles the permission table lets make the call (the back-office API; the supply API has none). */
  "x-roles"?: string[];
  /** Ready-to-run examples (the supply API's curl lines; `$SAMPLEX` stands for the server's origin). */
  "x-codeSamples"?: { lang: string; label?: string; source: string }[];
  parameters?: {
    name: string;
    in: "path" | "query" | "header";
    required: boolean;
    schema: JsonSchemaObject;
  }[];
  requestBody?: { required?: boolean; content: { "application/json": { schema: JsonSchemaObject } } };
};
export type ApiReference = {
  openapi: string;
  info: { title: string; version: string; description: string };
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, ApiOperation>>;
};

export const apiReferenceCall = defineCall({
  method: "GET",
  path: "/admin/support/api-reference",
  result: returns<ApiReference>(),
});
