/**
 * /admin/support (part 2, Support > Identifiers): a box of supplier or user identifiers, one per
 * line (thousands at once); the respondents they name, 100 a page, and an export of every match.
 */
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { Search, X } from "lucide-react";
import { PageHeader } from "../../components/layout/PageHeader.tsx";
import { DataGrid } from "../../components/data-grid/DataGrid.tsx";
import { FilterToolbar } from "../../components/filters/FilterToolbar.tsx";
import { LINES_PARAM, useList } from "../../components/data-grid/useList.ts";
import type { GridColumn } from "../../components/data-grid/types.ts";
import { Button } from "../../components/ui/button.tsx";
import { Textarea } from "../../components/ui/input.tsx";
import { Label } from "../../components/ui/label.tsx";
import { deviceLabel, identifierDateTime } from "../../../../shared/api/support.ts";
import { MAX_SEARCH_IDENTIFIERS, searchIdentifiers } from "../../../../shared/schemas/support.ts";
import { type IdentifierMatch, identifiersGrid, SUPPORT_DESCRIPTION, useSupportTabs } from "./support.ts";

const EXAMPLE = ["resp-0001", "65f0c1d2e3a4b5c6d7e8f901"].join("\n");

export default function IdentifiersPage() {
  const tabs = useSupportTabs();
  const list = useList<IdentifierMatch, "outcome">(identifiersGrid);
  const current = list.params.get(LINES_PARAM) ?? "";
  const [text, setText] = useState(current);
  const count = searchIdentifiers(text).length;
  const searched = searchIdentifiers(current).length;
  // the box above is the multi-line search: the toolbar shows the other filters and the export
  const toolbarList = useMemo(() => ({
    ...list,
    decl: { ...list.decl, filters: list.decl.filters?.filter((f) => f.kind !== "multiSearch") },
  }), [list]);

  const columns = useMemo<GridColumn<IdentifierMatch>[]>(() => [
    {
      id: "projectCode",
      header: "Project code",
      cell: (r) => (
        <Link
          to={`/admin/project?q=${encodeURIComponent(r.projectCode)}`}
          className="text-primary hover:underline"
        >
          {r.projectCode}
        </Link>
      ),
    },
    { id: "projectName", header: "Project name", className: "min-w-40", cell: (r) => r.projectName },
    { id: "supplierName", header: "Supplier name", cell: (r) => r.supplierName },
    {
      id: "sid",
      header: "Supplier identifier",
      cell: (r) => <span className="font-mono text-xs">{r.sid}</span>,
    },
    { id: "uid", header: "User identifier", cell: (r) => <span className="font-mono text-xs">{r.uid}</span> },
    { id: "createdAt", header: "Start", cell: (r) => identifierDateTime(r.createdAt) },
    { id: "updatedAt", header: "End", cell: (r) => identifierDateTime(r.updatedAt) },
    { id: "country", header: "Country", cell: (r) => r.countryName },
    { id: "ipAddress", header: "IP address", cell: (r) => r.ipAddress },
    { id: "deviceType", header: "Device type", cell: (r) => deviceLabel(r.deviceType) },
    {
      id: "browser",
      header: "Browser detail",
      className: "max-w-56 truncate",
      cell: (r) => <span title={r.browser}>{r.browser}</span>,
    },
    { id: "status", header: "Status", cell: (r) => (r.isTest ? `${r.statusLabel} (test)` : r.statusLabel) },
  ], []);

  return (
    <>
      <PageHeader title="Support" description={SUPPORT_DESCRIPTION} tabs={tabs} />
      <form
        className="mb-4 flex flex-col gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          list.setParam(LINES_PARAM, searchIdentifiers(text).join("\n") || null);
        }}
      >
        <Label htmlFor="identifiers">Supplier or user identifiers, one per line</Label>
        <Textarea
          id="identifiers"
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={5}
          className="max-w-3xl font-mono text-xs"
          placeholder={EXAMPLE}
          aria-describedby="identifiers-count"
        />
        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit" disabled={!count || count > MAX_SEARCH_IDENTIFIERS}>
            <Search /> Search
          </Button>
          <Button
            type="button"
            variant="outline"
            disabled={!text && !current}
            onClick={() => {
              setText("");
              list.setParam(LINES_PARAM, null);
            }}
          >
            <X /> Clear
          </Button>
          <span id="identifiers-count" className="text-sm text-muted-foreground">
            {count > MAX_SEARCH_IDENTIFIERS
              ? `${count.toLocaleString()} identifiers: at most ${MAX_SEARCH_IDENTIFIERS.toLocaleString()} at once`
              : `${count.toLocaleString()} identifier${count === 1 ? "" : "s"}`}
          </span>
        </div>
      </form>
      <FilterToolbar list={toolbarList} />
      <DataGrid
        list={list}
        columns={columns}
        caption="Identifiers"
        emptyText={searched ? "No respondent has these identifiers." : "Enter identifiers above and search."}
      />
    </>
  );
}
