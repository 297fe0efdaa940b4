/** `deno task start`: builds the SPA when missing or stale, then migrates, seeds and serves. */
import { ensureWebBuild } from "./web-build.ts";
import { serve } from "./main.ts";

const webRoot = await ensureWebBuild();
await serve({ webRoot });
