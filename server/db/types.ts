/** The typed Database: one interface per area in ./tables, joined here. */
import type { FoundationTables } from "./tables/foundation.ts";
import type { MasterTables } from "./tables/master.ts";
import type { ProjectTables } from "./tables/projects.ts";
import type { RouterTables } from "./tables/router.ts";
import type { SupportTables } from "./tables/support.ts";
import type { ReconcileTables } from "./tables/reconcile.ts";
import type { AccountTables } from "./tables/accounts.ts";
import type { ImportTables } from "./tables/imports.ts";
import type { OpsTables } from "./tables/ops.ts";

export interface Database
  extends
    FoundationTables,
    MasterTables,
    ProjectTables,
    RouterTables,
    SupportTables,
    ReconcileTables,
    AccountTables,
    ImportTables,
    OpsTables {}
