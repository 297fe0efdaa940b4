/** Clients area (part 1, 2.7): the grid's declaration over the shared list of shared/api/clients.ts. */
import type { ListDecl } from "../../components/data-grid/types.ts";
import { type ClientListItem, clientsList as clients } from "../../../../shared/api/clients.ts";
import { COUNTRIES } from "../../lib/lookups.ts";

export type { ClientListItem, ClientRecord } from "../../../../shared/api/clients.ts";

export const clientsList: ListDecl<
  ClientListItem,
  "countries" | "countryId" | "isApiIntegration" | "assignedTo" | "isActive"
> = {
  list: clients,
  rowId: (c) => c._id,
  defaultPageSize: 10,
  filters: [
    { kind: "search", placeholder: "Search clients", hint: "Searches name, code, email and city" },
    { kind: "select", key: "countries", label: "Countries", multiple: true, source: COUNTRIES },
    { kind: "status" },
    { kind: "export" },
  ],
};
