/** The typed Database: one interface per area in ./tables, joined here. */
import type { FoundationTables } from "./tables/foundation.ts";
import type { MasterTables } from "./tables/master.ts";
import type { ProjectTables } from "./tables/projects.ts";

export interface Database extends FoundationTables, MasterTables, ProjectTables {}
