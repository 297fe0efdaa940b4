/**
 * What an update changed, as the audit log keeps and shows it: one entry per changed field with its
 * label and its old and new value as a manager reads them (server/domain/audit/changes.ts makes
 * them). A change without two values (long text, a password) has only `from` ("changed", "set").
 */
export type LogChange = { label: string; from: string; to: string };

/** "Speed time: 120 s -> 90 s"; a change without two values reads "Project specs: changed". */
export function changeText(c: LogChange): string {
  return c.to === "" ? `${c.label}: ${c.from}` : `${c.label}: ${c.from} -> ${c.to}`;
}

/** The log's activity for an update: "Updated P0001: Project name: A -> B; Speeder: off -> on". */
export function changesActivity(head: string, changes: readonly LogChange[]): string {
  return `${head}: ${changes.map(changeText).join("; ")}`;
}

/** The activity without the changes listed after it ("Updated P0001"), for screens listing them apart. */
export function activityHead(activity: string, changes: readonly LogChange[]): string {
  if (!changes.length) return activity;
  const at = activity.indexOf(`: ${changeText(changes[0])}`);
  return at > 0 ? activity.slice(0, at) : activity;
}

/** The changes of a stored log row (a JSON list); [] for rows without them or unreadable ones. */
export function parseChanges(json: string | null | undefined): LogChange[] {
  if (!json) return [];
  try {
    const v = JSON.parse(json);
    return Array.isArray(v)
      ? v.filter((c) => c && typeof c.label === "string").map((c) => ({
        label: String(c.label),
        from: String(c.from ?? ""),
        to: String(c.to ?? ""),
      }))
      : [];
  } catch {
    return [];
  }
}
