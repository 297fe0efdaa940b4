/**
 * A log entry's activity as people read it: the head ("Updated P10001") and, for an update, each
 * changed field on its own line with its old and new value (shared/audit.ts). Entries without
 * changes show their text as it is. Used by Support > System Logs and a project's Logs dialog.
 */
import { activityHead, type LogChange } from "../../../../shared/audit.ts";

export function LogActivity(
  { activity, changes, className }: { activity: string; changes?: readonly LogChange[]; className?: string },
) {
  const list = changes ?? [];
  if (!list.length) return <span className={className}>{activity}</span>;
  return (
    <div className={className}>
      <span>{activityHead(activity, list)}</span>
      <ul className="mt-0.5 space-y-0.5 text-xs font-normal text-muted-foreground" aria-label="Changes">
        {list.map((c, i) => (
          <li key={i}>
            <span className="text-foreground">{c.label}</span>: {c.to === "" ? c.from : (
              <>
                {c.from}
                {" → "}
                <span className="text-foreground">{c.to}</span>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
