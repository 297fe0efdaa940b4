/** Builds web/dist with Vite when it is missing or older than any file in web/ or shared/. */
const root = new URL("..", import.meta.url).pathname;
const dist = `${root}web/dist`;

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for await (const e of Deno.readDir(dir)) {
    if (e.name === "dist" || e.name === "node_modules") continue;
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) newest = Math.max(newest, await newestMtime(p));
    else newest = Math.max(newest, (await Deno.stat(p)).mtime?.getTime() ?? 0);
  }
  return newest;
}

export async function webBuildIsStale(): Promise<boolean> {
  let built: number;
  try {
    built = (await Deno.stat(`${dist}/index.html`)).mtime?.getTime() ?? 0;
  } catch {
    return true;
  }
  const src = Math.max(await newestMtime(`${root}web`), await newestMtime(`${root}shared`));
  return src > built;
}

export async function ensureWebBuild(): Promise<string> {
  if (await webBuildIsStale()) {
    console.log("Building the web app (web/dist)...");
    const p = new Deno.Command(Deno.execPath(), {
      args: ["task", "build"],
      cwd: root,
      stdout: "inherit",
      stderr: "inherit",
    });
    const { code } = await p.output();
    if (code !== 0) throw new Error("The web build failed: see the output above");
  }
  return dist;
}
