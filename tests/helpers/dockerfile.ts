/** The project's Dockerfile read as its stages, for tests that check it or do what it does. */
export type Stage = { name: string; from: string; lines: string[] };

/** FROM ... [AS name] blocks, with continuation lines joined and comments dropped. */
export function stages(dockerfile: string): Stage[] {
  const lines = dockerfile.replace(/\\\n/g, " ").split("\n").map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const out: Stage[] = [];
  for (const line of lines) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) out.push({ from: from[1], name: from[2] ?? "", lines: [] });
    else out.at(-1)?.lines.push(line);
  }
  return out;
}

export const readDockerfile = async (root: string) => stages(await Deno.readTextFile(`${root}Dockerfile`));
