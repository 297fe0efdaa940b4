/**
 * POST /admin/system/log (shared/api/system-log.ts): with `filter` = a project id, that project's
 * activity timeline (the project Logs dialog); otherwise the paged System Logs of Support (search,
 * export), for the SUPPORT_LOG roles only.
 */
import type { Api } from "../http/api.ts";
import { parseWith } from "../http/validate.ts";
import { httpForbidden } from "../http/errors.ts";
import { listResponse } from "../http/list-route.ts";
import { ListBody } from "../../shared/list.ts";
import { MSG } from "../../shared/messages.ts";
import { ROLE_GROUPS } from "../../shared/permissions.ts";
import { asksProjectLog, ProjectLogBody, systemLogCall, systemLogList } from "../../shared/api/system-log.ts";
import { projectLogs } from "../domain/projects/projects.ts";
import { systemLogListSpec, systemLogQuery, systemLogRow } from "../domain/audit/list.ts";

export function systemLogRoutes(api: Api) {
  api.handle(systemLogCall, async ({ db, body, c }) => {
    if (asksProjectLog(body)) return await projectLogs(db, parseWith(ProjectLogBody, body).filter);
    if (!(ROLE_GROUPS.SUPPORT_LOG as readonly string[]).includes(c.get("user").role)) {
      throw httpForbidden(MSG.forbidden);
    }
    return listResponse(c, parseWith(ListBody, body), {
      query: systemLogQuery(db),
      spec: systemLogListSpec,
      map: systemLogRow,
      list: systemLogList,
    });
  });
}
