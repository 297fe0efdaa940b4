/**
 * The one calling shape of the domain: `fn(ctx, input)`. `ctx` is what the app was built with
 * (`Deps`: db, env, log, the clock `now`, the long-lived services) and who is acting; `input` is the
 * validated body of the call (one object, with the path's ids in it). A function that needs less
 * takes a `Pick<Ctx, ...>` of it, so the seed, the CLI and tests can call it with what they have.
 */
import type { Deps } from "../deps.ts";
import type { Actor } from "./audit/log.ts";

export type Ctx = Deps & {
  /** Who acts: the signed-in user with where the request came from, the CLI, or the system. */
  actor: Actor;
};

/** What a write needs: the database (or a transaction), who acts, and the clock. */
export type WriteCtx = Pick<Ctx, "db" | "actor" | "now">;
