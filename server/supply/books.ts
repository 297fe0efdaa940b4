/**
 * The supply API's books and limits (issue 23 items 2 and 4, issue 24 item 1), registered on the
 * supply sub-app (./app.ts): the per-key rate limit, transactions (JSON pages or a CSV download),
 * stats, and a member's erase. Every handler reads the key's supplier and nothing else.
 */
import type { Hono, MiddlewareHandler } from "hono";
import type { SupplyEnv } from "./context.ts";
import { ok } from "../http/respond.ts";
import { parseWith } from "../http/validate.ts";
import { csvExport, csvResponse } from "../http/csv.ts";
import { requestInfo } from "../http/request-info.ts";
import type { HttpCtx } from "../http/context.ts";
import { transactionsDownload, transactionsPage } from "../domain/supply/transactions.ts";
import { supplyStats } from "../domain/supply/stats.ts";
import { supplyEraseMember } from "../domain/supply/members.ts";
import {
  StatsQuery,
  supplyEraseMemberCall,
  supplyStatsCall,
  supplyTransactionsCall,
  TransactionsQuery,
} from "../../shared/api/supply-books.ts";
import { MemberProfileErase } from "../../shared/schemas/supplier.ts";

export const rateLimited = (seconds: number) =>
  `Too many requests for this API key: try again in ${seconds} second${seconds === 1 ? "" : "s"}`;

/** The key's token bucket (deps.services.supplyRate): 429 with Retry-After when it is empty. */
export const limitSupplyRate: MiddlewareHandler<SupplyEnv> = async (c, next) => {
  const verdict = c.get("deps").services.supplyRate.take(c.get("supplier").keyId);
  if (!verdict.ok) {
    c.header("retry-after", String(verdict.retryAfterSeconds));
    return c.json({ message: rateLimited(verdict.retryAfterSeconds) }, 429);
  }
  await next();
};

const wantsCsv = (accept: string | undefined) => /\btext\/csv\b/i.test(accept ?? "");

export function supplyBooks(app: Hono<SupplyEnv>) {
  app.get(supplyTransactionsCall.path, async (c) => {
    const query = parseWith(TransactionsQuery, c.req.query());
    const { db, env, jwtKey, now } = c.get("deps");
    const input = { supplierId: c.get("supplier").supplierId, query };
    if (!wantsCsv(c.req.header("accept"))) return ok(c, await transactionsPage({ db, jwtKey }, input));
    const { walk, nextCursor } = await transactionsDownload({ db, jwtKey }, input);
    c.header("x-next-cursor", nextCursor);
    return csvResponse(
      c,
      `transactions-${new Date(now()).toISOString().slice(0, 10)}.csv`,
      csvExport({ db, url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN }, {
        module: new URL("../domain/supply/transactions.ts", import.meta.url).href,
        name: "transactionsExport",
        args: [walk],
      }),
    );
  });

  app.get(supplyStatsCall.path, async (c) => {
    const query = parseWith(StatsQuery, c.req.query());
    const { db, now } = c.get("deps");
    return ok(c, await supplyStats({ db, now }, { supplierId: c.get("supplier").supplierId, query }));
  });

  app.post(supplyEraseMemberCall.path, async (c) => {
    const { memberId } = parseWith(MemberProfileErase, { memberId: c.req.param("memberId") });
    const { db, now } = c.get("deps");
    const { supplierId, keyId } = c.get("supplier");
    // (a supply context is the app's context with the key's supplier added: requestInfo reads headers and deps)
    const info = requestInfo(c as unknown as HttpCtx);
    const out = await supplyEraseMember(
      {
        db,
        now,
        from: { ipAddress: info.ipAddress, device: info.device, city: info.city, country: info.country },
      },
      { supplierId, keyId, memberId },
    );
    return ok(c, out);
  });
}
