/** Row types of the support tools' tables (migration 0008). */
import type { ColumnType } from "kysely";

/** A column with a database default: optional on insert. */
type D<T> = ColumnType<T, T | undefined, T>;

export interface ScheduledJobsTable {
  id: string;
  projectId: string;
  /** Minutes between runs (at least 2). */
  interval: number;
  comment: D<string>;
  isSoft: D<number>;
  isActive: D<number>;
  isDeleted: D<number>;
  createdBy: D<string | null>;
  createdAt: string;
  updatedAt: string;
  /** When the job is due; while a run is under way, the end of its lease. */
  nextRunAt: string;
  lastRunAt: D<string | null>;
  lastStatus: D<"" | "ok" | "error">;
  lastOutcome: D<string>;
  runs: D<number>;
}

export interface SupportTables {
  scheduled_jobs: ScheduledJobsTable;
}
