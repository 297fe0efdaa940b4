import * as v from "valibot";
import { searchTerm } from "../../shared/list.ts";
import type { Api } from "../http/api.ts";
import { actorOf } from "../http/api.ts";
import { body, idParam } from "../http/validate.ts";
import { ok } from "../http/respond.ts";
import type { Ctx } from "../http/context.ts";
import { SupplierMapForm, SupplierMapToggle } from "../../shared/schemas/project.ts";
import {
  getSupplierMap,
  listSupplierMaps,
  saveSupplierMap,
  supplierStats,
  updateSupplierMap,
} from "../domain/projects/supplier-maps.ts";

/** Base of respondent entry links: PUBLIC_URL, else the origin staff are using. */
export const entryBaseOf = (c: Ctx) =>
  (c.get("deps").env.PUBLIC_URL ?? new URL(c.req.url).origin).replace(/\/$/, "");

const mapId = (c: Ctx) => idParam(c, "Supplier map");

export function supplierMapRoutes(api: Api) {
  api.post("/admin/supplierMaps", async (c) => {
    const input = await body(
      c,
      v.object({
        projectId: v.pipe(v.string("Project is required"), v.nonEmpty("Project is required")),
        search: searchTerm,
      }),
    );
    return ok(c, await listSupplierMaps(c.get("deps").db, input.projectId, input.search, entryBaseOf(c)));
  });

  api.post("/admin/supplierMap/add", async (c) => {
    const input = await body(c, SupplierMapForm);
    const { record, created } = await saveSupplierMap(
      c.get("deps").db,
      actorOf(c),
      input,
      entryBaseOf(c),
      c.get("deps").now,
    );
    return ok(c, record, created ? "Supplier mapped successfully" : "Supplier map updated successfully");
  });

  api.put("/admin/supplierMap/update/:id", async (c) => {
    const patch = await body(c, SupplierMapToggle);
    const record = await updateSupplierMap(
      c.get("deps").db,
      actorOf(c),
      mapId(c),
      patch,
      entryBaseOf(c),
      c.get("deps").now,
    );
    return ok(
      c,
      record,
      "isDeleted" in patch ? "Supplier removed from the project" : "Supplier map updated successfully",
    );
  });

  api.get(
    "/admin/supplierMap/:id",
    async (c) => ok(c, await getSupplierMap(c.get("deps").db, mapId(c), entryBaseOf(c))),
  );

  // "reset": the empty form with the spec's defaults
  api.get("/admin/supplierMap", (c) =>
    ok(c, {
      supplierId: "",
      supplierCPI: 0,
      supplierQuota: 0,
      supplierClickQuota: 0,
      allowTraffic: true,
      isBoarded: true,
      isTestLink: false,
      isPreScreen: false,
      redirectComplete: "",
      redirectTerminate: "",
      redirectQuotaFull: "",
      redirectQualityTerm: "",
      redirectSurveyClose: "",
    }));

  api.post("/admin/project/supplier/stat/:projectId", async (c) => {
    return ok(c, await supplierStats(c.get("deps").db, idParam(c, "Project", "projectId")));
  });
}
