/** The static index of migrations, in order. Add new ones at the end; never rename or edit old ones. */
import type { Migration } from "kysely/migration";
import * as m0001 from "./0001_foundation.ts";
import * as m0002 from "./0002_master_data.ts";
import * as m0003 from "./0003_projects.ts";
import * as m0004 from "./0004_router.ts";
import * as m0005 from "./0005_search.ts";
import * as m0006 from "./0006_router_hook_lease.ts";
import * as m0007 from "./0007_token_generation.ts";
import * as m0008 from "./0008_support.ts";
import * as m0009 from "./0009_reconcile.ts";
import * as m0010 from "./0010_accounts.ts";
import * as m0011 from "./0011_dashboard_totals.ts";
import * as m0012 from "./0012_reports.ts";
import * as m0013 from "./0013_imports.ts";
import * as m0014 from "./0014_router_rollups.ts";
import * as m0015 from "./0015_report_rows.ts";
import * as m0016 from "./0016_reconcile_chunk.ts";
import * as m0017 from "./0017_interlocked_quotas.ts";
import * as m0018 from "./0018_session_reconciles.ts";
import * as m0020 from "./0020_provider_quota_sets.ts";
import * as m0021 from "./0021_group_status_holds.ts";
import * as m0022 from "./0022_reconcile_unknown.ts";
import * as m0024 from "./0024_supplier_hook_refusal.ts";
import * as m0025 from "./0025_task_leases.ts";
import * as m0027 from "./0027_tax_details.ts";
import * as m0031 from "./0031_audit_changes.ts";
import * as m0032 from "./0032_supplier_api_keys.ts";
import * as m0033 from "./0033_member_profiles.ts";
import * as m0034 from "./0034_supply_surveys.ts";
import * as m0035 from "./0035_supply_books.ts";
import * as m0036 from "./0036_supplier_callbacks.ts";
import * as m0037 from "./0037_client_api.ts";
import * as m0038 from "./0038_router_holds.ts";
import * as m0039 from "./0039_routing.ts";
import * as m0040 from "./0040_held_time.ts";
import * as m0041 from "./0041_live_sid_order.ts";
import * as m0042 from "./0042_callback_claims.ts";

export const migrations: Record<string, Migration> = {
  "0001_foundation": m0001,
  "0002_master_data": m0002,
  "0003_projects": m0003,
  "0004_router": m0004,
  "0005_search": m0005,
  "0006_router_hook_lease": m0006,
  "0007_token_generation": m0007,
  "0008_support": m0008,
  "0009_reconcile": m0009,
  "0010_accounts": m0010,
  "0011_dashboard_totals": m0011,
  "0012_reports": m0012,
  "0013_imports": m0013,
  "0014_router_rollups": m0014,
  "0015_report_rows": m0015,
  "0016_reconcile_chunk": m0016,
  "0017_interlocked_quotas": m0017,
  "0018_session_reconciles": m0018,
  "0020_provider_quota_sets": m0020,
  "0021_group_status_holds": m0021,
  "0022_reconcile_unknown": m0022,
  "0024_supplier_hook_refusal": m0024,
  "0025_task_leases": m0025,
  "0027_tax_details": m0027,
  "0031_audit_changes": m0031,
  "0032_supplier_api_keys": m0032,
  "0033_member_profiles": m0033,
  "0034_supply_surveys": m0034,
  "0035_supply_books": m0035,
  "0036_supplier_callbacks": m0036,
  "0037_client_api": m0037,
  "0038_router_holds": m0038,
  "0039_routing": m0039,
  "0040_held_time": m0040,
  "0041_live_sid_order": m0041,
  "0042_callback_claims": m0042,
};
