/** `deno task start`: builds the SPA when missing or stale, then migrates, seeds and serves. */
import "./node-env.ts"; // first: React's server build is chosen when it loads
import { ensureWebBuild } from "./web-build.ts";
import { serve } from "./main.ts";

const webRoot = await ensureWebBuild();
await serve({ webRoot });
