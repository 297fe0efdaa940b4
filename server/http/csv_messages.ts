/** What the app's thread and the CSV worker (csv_worker.ts) say to each other (csvExport in csv.ts). */

/** A module's named export `(db, ...args) => { columns, pages }` and its arguments. */
export type CsvJob = { module: string; name: string; args: unknown[] };
export type CsvWorkerStart = { type: "start"; url: string; authToken?: string; job: CsvJob };
export type CsvWorkerMessage =
  | { type: "chunk"; bytes: Uint8Array }
  | { type: "end" }
  | { type: "error"; message: string };
