/**
 * POST /admin/system/log: with `filter` = a project id, that project's activity timeline (the
 * project Logs dialog); otherwise the paged System Logs of Support (search, export).
 */
import * as v from "valibot";
import type { Api } from "../http/api.ts";
import { body, parseWith } from "../http/validate.ts";
import { ok } from "../http/respond.ts";
import { forbidden } from "../http/errors.ts";
import { listResponse } from "../http/list-route.ts";
import { ListBody } from "../../shared/list.ts";
import { MSG } from "../../shared/messages.ts";
import { ROLE_GROUPS } from "../../shared/permissions.ts";
import { projectLogs } from "../domain/projects/projects.ts";
import { systemLogCsv, systemLogListSpec, systemLogQuery } from "../domain/audit/list.ts";

const ProjectLogBody = v.object({
  filter: v.pipe(v.string(), v.regex(/^[0-9a-f]{24}$/, "Project is required")),
});

export function systemLogRoutes(api: Api) {
  api.post("/admin/system/log", async (c) => {
    const raw = await body(c, v.record(v.string(), v.unknown()));
    const db = c.get("deps").db;
    if (typeof raw.filter === "string") {
      const { filter } = parseWith(ProjectLogBody, raw);
      return ok(c, await projectLogs(db, filter));
    }
    if (!(ROLE_GROUPS.SUPPORT_LOG as readonly string[]).includes(c.get("user").role)) {
      throw forbidden(MSG.forbidden);
    }
    const input = parseWith(ListBody, raw);
    return listResponse(c, input, {
      query: systemLogQuery(db),
      spec: systemLogListSpec,
      map: (r) => r,
      csv: { filename: "system-logs", columns: systemLogCsv },
    });
  });
}
