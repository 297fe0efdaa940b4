/** The static index of migrations, in order. Add new ones at the end; never rename or edit old ones. */
import type { Migration } from "kysely/migration";
import * as m0001 from "./0001_foundation.ts";
import * as m0002 from "./0002_master_data.ts";
import * as m0003 from "./0003_projects.ts";

export const migrations: Record<string, Migration> = {
  "0001_foundation": m0001,
  "0002_master_data": m0002,
  "0003_projects": m0003,
};
