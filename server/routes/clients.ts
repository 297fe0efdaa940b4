/** Clients (part 1, 7 "Clients"): handlers of the contracts in shared/api/clients.ts. */
import { answer, type Api } from "../http/api.ts";
import * as C from "../../shared/api/clients.ts";
import {
  clientInvoiceOptions,
  clientKeys,
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

export function clientRoutes(api: Api) {
  api.list(C.listClients, ({ db }) => ({
    query: clientsListQuery(db),
    spec: clientsListSpec,
    map: clientListMap,
    enrich: (rows) => enrichClients(db, rows),
    list: C.clientsList,
  }));

  // pickers
  api.handle(C.clientOptionsCall, ({ db, query }) => clientOptions(db, { search: query.search }));
  api.handle(C.clientInvoiceOptionsCall, ({ db, query }) => clientInvoiceOptions(db, query.search));
  api.handle(C.filterClients, ({ db, body }) => clientOptions(db, body));

  api.handle(
    C.addClient,
    async ({ ctx, body }) => answer(await createClient(ctx, body), "Client added successfully"),
  );
  api.handle(C.updateClientCall, async ({ ctx, params, body }) => {
    const { record, outcome } = await updateClient(ctx, { ...body, id: params.id });
    return answer(record, updateMessage("Client", outcome));
  });
  api.handle(C.getClientCall, ({ db, params }) => getClient(db, params.id));
  api.handle(
    C.revealClientKeysCall,
    ({ ctx, params }) => clientKeys(ctx, params.id),
  );
}
