/** Serves web + API: env -> deps -> Deno.serve(createApp(deps).fetch), with graceful shutdown. */
import { EnvError, loadEnv } from "./env.ts";
import { buildDeps } from "./boot.ts";
import { createApp } from "./app.ts";
import { seedIfEmpty } from "./domain/seed/seed.ts";

export async function serve(opts: { webRoot?: string } = {}) {
  let env;
  try {
    env = loadEnv();
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(e.message);
      Deno.exit(1);
    }
    throw e;
  }
  const { deps, handle } = await buildDeps(env);
  const seeded = await seedIfEmpty(deps);
  if (seeded) deps.log.info("seeded demo data", seeded);
  const app = createApp(deps, { webRoot: opts.webRoot });
  const ac = new AbortController();
  const server = Deno.serve({
    port: env.PORT,
    hostname: env.HOST,
    signal: ac.signal,
    onListen: ({ hostname, port }) => {
      deps.log.info("listening", {
        url: `http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`,
      });
    },
  }, (req, info) => app.fetch(req, { remoteAddr: info.remoteAddr }));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.log.info("shutting down", { signal });
    ac.abort(); // stop accepting; in-flight requests finish
    await server.finished;
    await handle.close();
    Deno.exit(0);
  };
  for (const sig of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(sig, () => stop(sig));
  return server;
}

if (import.meta.main) {
  const webRoot = new URL("../web/dist", import.meta.url).pathname;
  let hasWeb = false;
  try {
    hasWeb = (await Deno.stat(`${webRoot}/index.html`)).isFile;
  } catch { /* API only */ }
  await serve({ webRoot: hasWeb ? webRoot : undefined });
}
