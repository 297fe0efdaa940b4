/** Support (part 2, 7 "Support and users") and the progress report: handlers of shared/api/support.ts. */
import { answer, type Api } from "../http/api.ts";
import { csvExport, csvResponse } from "../http/csv.ts";
import * as S from "../../shared/api/support.ts";
import { identifierMatch, identifiersListSpec, identifiersQuery } from "../domain/support/identifiers.ts";
import { shortCodes } from "../domain/support/shortcodes.ts";
import {
  addJob,
  getJob,
  JOB_MESSAGES,
  jobRecord,
  jobsListSpec,
  jobsQuery,
  updateJob,
} from "../domain/support/jobs.ts";
import { progressData } from "../domain/progress/data.ts";
import { progressFileName, progressPng } from "../domain/progress/image.ts";

export function supportRoutes(api: Api) {
  api.list(S.searchIdentifiersCall, ({ db, body }) => ({
    query: identifiersQuery(db, body),
    spec: identifiersListSpec,
    map: identifierMatch,
    list: S.identifiersList,
  }));
  // a million rows at once: written in a worker (server/http/csv.ts), the respondents still served
  api.handle(S.identifiersReportCall, ({ db, deps, body, c }) => {
    const stamp = new Date().toISOString().slice(0, 10);
    return csvResponse(
      c,
      `identifiers-${stamp}.csv`,
      csvExport({ db, url: deps.env.DATABASE_URL, authToken: deps.env.DATABASE_AUTH_TOKEN }, {
        module: new URL("../domain/support/identifiers.ts", import.meta.url).href,
        name: "identifiersExport",
        args: [body.identifierData],
      }),
    );
  });

  api.handle(S.shortCodesCall, ({ body }) => shortCodes(body.filter ?? ""));

  api.list(S.listJobsCall, ({ db }) => ({
    query: jobsQuery(db),
    spec: jobsListSpec,
    map: jobRecord,
    list: S.jobsList,
  }));
  api.handle(
    S.addJobCall,
    async ({ ctx, body }) => answer(await addJob(ctx, body), "Scheduled job added successfully"),
  );
  api.handle(S.updateJobCall, async ({ ctx, params, body }) => {
    const { record, outcome } = await updateJob(ctx, { ...body, id: params.id });
    return answer(record, JOB_MESSAGES[outcome]);
  });
  api.handle(S.getJobCall, ({ db, params }) => getJob(db, params.id));

  api.handle(S.progressReportCall, async ({ db, deps, params, c }) => {
    const data = await progressData(db, params.projectId, deps.now());
    const png = await progressPng(data);
    return c.body(png, 200, {
      "content-type": "image/png",
      "content-disposition": `attachment; filename="${progressFileName(data)}"`,
      "cache-control": "no-store",
    });
  });
}
