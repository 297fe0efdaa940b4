/**
 * The real checkpoint worker (server/db/checkpoint_worker.ts) that dies of an uncaught error a
 * moment after it has started: for tests of the app's fallback to SQLite's own checkpoint.
 */
/// <reference lib="deno.worker" />
import "../../server/db/checkpoint_worker.ts";

self.addEventListener("message", (e: MessageEvent<{ type: string }>) => {
  if (e.data.type !== "start") return;
  setTimeout(() => {
    throw new Error("checkpoint worker crashed");
  }, 400);
});
