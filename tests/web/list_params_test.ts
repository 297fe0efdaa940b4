/** The list kit's URL contract: what a shared link means as a list call body. */
import { assertEquals } from "../helpers/assert.ts";
import { buildListBody, ownedParams, readListState } from "../../web/src/components/data-grid/list-params.ts";
import type { ListDecl } from "../../web/src/components/data-grid/types.ts";
import { defineList, type ListResult } from "../../shared/list.ts";
import { returns } from "../../shared/api/contract.ts";

type Row = { _id: string };
const things = defineList<Row>()({
  id: "t",
  call: {
    key: "POST /admin/things",
    path: "/admin/things",
    method: "POST",
    result: returns<ListResult<Row>>(),
  },
  filters: { clientId: "texts", projectStatus: "numbers", parentProjectId: "text", sortDate: "number" },
  sorts: [],
  columns: [],
});
const decl: ListDecl<Row> = {
  id: "t",
  list: things,
  rowId: (r) => r._id,
  defaultPageSize: 20,
  fixedFilter: { parentProjectId: "p1" },
  filters: [
    { kind: "search" },
    { kind: "multiSearch" },
    { kind: "select", key: "clientId", label: "Client", multiple: true },
    { kind: "select", key: "projectStatus", label: "Status", numeric: true },
    { kind: "status" },
    { kind: "sortBy" },
    { kind: "dateRange" },
    { kind: "export" },
  ],
};

Deno.test("list body: an empty URL gives page 1, the list's default size and the fixed filter", () => {
  assertEquals(buildListBody(new URLSearchParams(), decl), {
    filter: { parentProjectId: "p1" },
    search: "",
    pageNo: 1,
    limit: 20,
  });
});

Deno.test("list body: every filter kind is read from the URL and typed as declared", () => {
  const params = new URLSearchParams(
    "page=3&size=5&q=%20acme%20&lines=A1%0AB2&clientId=c1&clientId=c2&projectStatus=6&status=false" +
      "&sortDate=2&minDate=2026-01-01&maxDate=2026-01-31&ignored=1",
  );
  assertEquals(buildListBody(params, decl), {
    filter: {
      parentProjectId: "p1",
      multiSearch: "A1\nB2",
      clientId: ["c1", "c2"],
      projectStatus: 6,
      sortDate: 2,
      minDate: "2026-01-01",
      maxDate: "2026-01-31",
    },
    search: "acme",
    pageNo: 3,
    limit: 5,
    status: false,
  });
});

Deno.test("list body: bad values fall back instead of reaching the server", () => {
  const params = new URLSearchParams(
    "page=-4&size=7&status=maybe&sortDate=9&minDate=2026-02-10&maxDate=2026-02-01&projectStatus=x",
  );
  const body = buildListBody(params, decl);
  assertEquals(body.pageNo, 1);
  assertEquals(body.limit, 20, "only 5, 10 and 20 are page sizes");
  assertEquals("status" in body, false);
  // max before min is dropped; min stays
  assertEquals(body.filter, { parentProjectId: "p1", minDate: "2026-02-10" });
});

Deno.test("list state: external offers read their page from p", () => {
  const state = readListState(new URLSearchParams("p=4&page=9"), { ...decl, pageParam: "p" });
  assertEquals(state.pageNo, 4);
});

Deno.test("owned params: reset clears exactly the filters' parameters", () => {
  assertEquals(ownedParams(decl.filters!), [
    "q",
    "lines",
    "clientId",
    "projectStatus",
    "status",
    "sortDate",
    "minDate",
    "maxDate",
  ]);
});
