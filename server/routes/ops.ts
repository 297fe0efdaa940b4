/**
 * Operations calls of Support (shared/api/ops.ts): the scheduled backups with their sizes, and the
 * API reference (the OpenAPI document of server/openapi.ts) for the in-app page.
 */
import type { Api } from "../http/api.ts";
import { apiReferenceCall, listBackupsCall } from "../../shared/api/ops.ts";
import { backupsOverview } from "../domain/ops/backup.ts";
import { openApiDocument } from "../openapi.ts";

export function opsRoutes(api: Api) {
  api.handle(listBackupsCall, ({ deps }) => backupsOverview(deps.env));
  api.handle(apiReferenceCall, () => openApiDocument());
}
