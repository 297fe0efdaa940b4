/** Row types of the operations tables (migration 0025). */

/** Who runs a single-run task (server/domain/ops/lease.ts) until when. */
export interface TaskLeasesTable {
  name: string;
  /** The instance holding it: host, process id and a per-start random part. */
  holder: string;
  expiresAt: string;
  takenAt: string;
}

export interface OpsTables {
  task_leases: TaskLeasesTable;
}
