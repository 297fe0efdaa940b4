/**
 * What a client is billed for and a supplier is paid for: the accepted count of reconciled work.
 * A supplier map's accepted count is the admin-approved count where staff set one (the supplier
 * summary), else the router's approved counter; a child project's is its approved counter with
 * each of its maps' admin-approved corrections applied, so revenue (accepted x project CPI) and
 * cost (accepted x supplier CPI) count the same completes. One definition for invoices, Ready To
 * Invoice, purchase orders, the client and supplier figures and the dashboard.
 */
import { type RawBuilder, sql } from "kysely";

/** A supplier map's accepted count, `alias` naming the supplier_maps row. */
export const mapAccepted = (alias = "m"): RawBuilder<number> =>
  sql<number>`coalesce(${sql.ref(`${alias}.adminApproved`)}, ${sql.ref(`${alias}.approved`)})`;

/** A child project's accepted count, `alias` naming the projects row (its maps by the project index). */
export const projectAccepted = (alias = "p"): RawBuilder<number> =>
  sql<number>`(${sql.ref(`${alias}.approved`)} + coalesce((SELECT sum(am.adminApproved - am.approved)
    FROM supplier_maps am WHERE am.projectId = ${sql.ref(`${alias}.id`)} AND am.isDeleted = 0
    AND am.adminApproved IS NOT NULL), 0))`;
