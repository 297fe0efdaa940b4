/** Suppliers (part 1, 7 "Suppliers and supplier maps": the supplier calls). */
import type { Api } from "../http/api.ts";
import { actorOf } from "../http/api.ts";
import { body, idParam } from "../http/validate.ts";
import { ok } from "../http/respond.ts";
import { listResponse } from "../http/list-route.ts";
import type { CsvColumn } from "../http/csv.ts";
import { ListBody } from "../../shared/list.ts";
import { SupplierForm, SupplierUpdate } from "../../shared/schemas/supplier.ts";
import {
  createSupplier,
  enrichSuppliers,
  getSupplier,
  type SupplierListItem,
  supplierListMap,
  supplierOptions,
  suppliersListQuery,
  suppliersListSpec,
  updateSupplier,
} from "../domain/suppliers/suppliers.ts";
import { updateMessage } from "../domain/common/records.ts";

const money = (n: number) => n.toFixed(2);

/** The grid's columns (2.8). */
const supplierCsv: CsvColumn<SupplierListItem>[] = [
  { header: "Supplier name", value: (r) => r.supplierName },
  { header: "Short code", value: (r) => r.supplierShortCode },
  { header: "Type", value: (r) => r.supplierTypeLabel },
  { header: "Country", value: (r) => r.countryName },
  { header: "Country code", value: (r) => r.countryCode },
  { header: "Total projects", value: (r) => r.totalProjects },
  { header: "Active projects", value: (r) => r.activeProjects },
  { header: "Traffic", value: (r) => r.responded },
  { header: "Completed", value: (r) => r.completed },
  { header: "Approved", value: (r) => r.approved },
  { header: "Actual expense ($)", value: (r) => money(r.actualExpense) },
  { header: "Expected expense ($)", value: (r) => money(r.expectedExpense) },
  { header: "Email", value: (r) => r.supplierEmail },
  { header: "Status", value: (r) => (r.isActive ? "Active" : "Inactive") },
];

export function supplierRoutes(api: Api) {
  api.post("/admin/suppliers", async (c) => {
    const db = c.get("deps").db;
    return listResponse(c, await body(c, ListBody), {
      query: suppliersListQuery(db),
      spec: suppliersListSpec,
      map: supplierListMap,
      enrich: (rows) => enrichSuppliers(db, rows),
      csv: { filename: "suppliers", columns: supplierCsv },
    });
  });

  api.get(
    "/admin/suppliers/all",
    async (c) => ok(c, await supplierOptions(c.get("deps").db, c.req.query("search"))),
  );

  // literal paths first: POST /admin/supplier/:id would otherwise also match /admin/supplier/add
  api.post("/admin/supplier/add", async (c) => {
    const input = await body(c, SupplierForm);
    return ok(c, await createSupplier(c.get("deps").db, actorOf(c), input), "Supplier added successfully");
  });

  api.put("/admin/supplier/update/:id", async (c) => {
    const id = idParam(c, "Supplier");
    const input = await body(c, SupplierUpdate);
    const { record, outcome } = await updateSupplier(c.get("deps").db, actorOf(c), id, input);
    return ok(c, record, updateMessage("Supplier", outcome));
  });

  // the spec reads one supplier with a POST (empty body)
  api.post(
    "/admin/supplier/:id",
    async (c) => ok(c, await getSupplier(c.get("deps").db, idParam(c, "Supplier"))),
  );
}
