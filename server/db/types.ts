/** The typed Database: one interface per area in ./tables, joined here. */
import type { FoundationTables } from "./tables/foundation.ts";

export interface Database extends FoundationTables {}
