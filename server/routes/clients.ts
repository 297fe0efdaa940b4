/** Clients (part 1, 7 "Clients"). */
import type { Api } from "../http/api.ts";
import { actorOf } from "../http/api.ts";
import { body, idParam } from "../http/validate.ts";
import { ok } from "../http/respond.ts";
import { listResponse } from "../http/list-route.ts";
import type { CsvColumn } from "../http/csv.ts";
import { ListBody } from "../../shared/list.ts";
import { ClientFilterBody, ClientForm, ClientUpdate } from "../../shared/schemas/client.ts";
import {
  clientInvoiceOptions,
  type ClientListItem,
  clientListMap,
  clientOptions,
  clientsListQuery,
  clientsListSpec,
  createClient,
  enrichClients,
  getClient,
  updateClient,
} from "../domain/clients/clients.ts";
import { updateMessage } from "../domain/common/records.ts";

const money = (n: number) => n.toFixed(2);

/** The grid's columns (2.7). */
const clientCsv: CsvColumn<ClientListItem>[] = [
  { header: "Client name", value: (r) => r.clientName },
  { header: "Client code", value: (r) => r.clientCode },
  { header: "Region", value: (r) => r.countryName },
  { header: "Country code", value: (r) => r.countryCode },
  { header: "Total projects", value: (r) => r.totalProjects },
  { header: "Active projects", value: (r) => r.activeProjects },
  { header: "Traffic", value: (r) => r.responded },
  { header: "Complete", value: (r) => r.completed },
  { header: "Approved", value: (r) => r.approved },
  { header: "Actual revenue ($)", value: (r) => money(r.actualRevenue) },
  { header: "Expected revenue ($)", value: (r) => money(r.expectedRevenue) },
  { header: "Email", value: (r) => r.clientEmail },
  { header: "Assigned to", value: (r) => r.assignedToName },
  { header: "Status", value: (r) => (r.isActive ? "Active" : "Inactive") },
];

export function clientRoutes(api: Api) {
  api.post("/admin/clients", async (c) => {
    const db = c.get("deps").db;
    return listResponse(c, await body(c, ListBody), {
      query: clientsListQuery(db),
      spec: clientsListSpec,
      map: clientListMap,
      enrich: (rows) => enrichClients(db, rows),
      csv: { filename: "clients", columns: clientCsv },
    });
  });

  // pickers
  api.get(
    "/admin/clients/all",
    async (c) => ok(c, await clientOptions(c.get("deps").db, { search: c.req.query("search") })),
  );
  api.get(
    "/admin/clients/invoice/all",
    async (c) => ok(c, await clientInvoiceOptions(c.get("deps").db, c.req.query("search"))),
  );
  api.post("/admin/clients/filter/all", async (c) => {
    const input = await body(c, ClientFilterBody);
    return ok(c, await clientOptions(c.get("deps").db, input));
  });

  api.post("/admin/client/add", async (c) => {
    const input = await body(c, ClientForm);
    return ok(c, await createClient(c.get("deps").db, actorOf(c), input), "Client added successfully");
  });

  api.put("/admin/client/update/:id", async (c) => {
    const id = idParam(c, "Client");
    const input = await body(c, ClientUpdate);
    const { record, outcome } = await updateClient(c.get("deps").db, actorOf(c), id, input);
    return ok(c, record, updateMessage("Client", outcome));
  });

  api.get("/admin/client/:id", async (c) => ok(c, await getClient(c.get("deps").db, idParam(c, "Client"))));
}
