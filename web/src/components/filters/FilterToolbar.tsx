/**
 * The shared filter toolbar (part 1, 2.5), built from the list's declaration: each filter kind
 * reads and writes the URL through the list controller, so a view can be shared and survives reload.
 */
import * as React from "react";
import { Copy, Download, FilterX, Link2, ListFilter, SlidersHorizontal } from "lucide-react";
import type { FilterDecl } from "../data-grid/types.ts";
import {
  dateKeys,
  LINES_PARAM,
  type ListController,
  SEARCH_PARAM,
  selectParam,
  selectValues,
  STATUS_PARAM,
} from "../data-grid/useList.ts";
import { ownedParams } from "../data-grid/list-params.ts";
import { Button } from "../ui/button.tsx";
import { Select } from "../ui/select.tsx";
import { Textarea } from "../ui/input.tsx";
import { Popover, PopoverContent, PopoverTrigger } from "../ui/popover.tsx";
import { MultiSelect } from "./MultiSelect.tsx";
import { DateInput } from "./DateInput.tsx";
import { SearchInput } from "./SearchInput.tsx";
import { useOptions } from "./useOptions.ts";
import { copyText } from "../../lib/clipboard.ts";
import { notify } from "../../lib/notify.ts";
import { cn } from "../../lib/utils.ts";

const ALL = "__all";

export const SORT_BY_OPTIONS = [
  { value: "1", label: "Today" },
  { value: "2", label: "Last 7 Days" },
  { value: "3", label: "This Month" },
];

/** Filters shown in the toolbar itself; the rest go under "Filters" when there are many. */
const INLINE_SELECTS = 2;
/** With more filters than this beside the search, the extra ones move into the popover. */
const MAX_INLINE = 3;

/**
 * Splits a toolbar's filters: the search boxes and the first selects stay in the line; the other
 * selects, the status, the period and the date range go into the "Filters" popover once there
 * are more than MAX_INLINE of them, so a toolbar keeps to one line at 1280 px.
 */
export function splitFilters(filters: readonly FilterDecl[]) {
  const choices = filters.filter((f) => ["select", "status", "sortBy", "dateRange"].includes(f.kind));
  if (choices.length <= MAX_INLINE) return { inline: filters, more: [] as FilterDecl[] };
  const inlineSelects: FilterDecl[] = choices.filter((f) => f.kind === "select").slice(0, INLINE_SELECTS);
  const more = choices.filter((f) => !inlineSelects.includes(f));
  return { inline: filters.filter((f) => !more.includes(f)), more };
}

export function FilterToolbar<T>({ list, actions }: { list: ListController<T>; actions?: React.ReactNode }) {
  const filters = list.decl.filters ?? [];
  const exportDecl = filters.find((f) => f.kind === "export");
  const { inline, more } = splitFilters(filters);
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2" role="toolbar" aria-label="Filters">
      {inline.map((f, i) => <FilterControl key={i} list={list} decl={f} />)}
      {more.length ? <MoreFilters list={list} filters={more} /> : null}
      {/* its place is kept while no filter is on, so showing it never moves the other controls */}
      <Button
        variant="ghost"
        size="icon"
        onClick={list.resetFilters}
        className={cn(!list.hasActiveFilters && "invisible")}
        aria-hidden={!list.hasActiveFilters || undefined}
        aria-label="Reset filters"
        title="Reset filters"
        tabIndex={list.hasActiveFilters ? undefined : -1}
        data-testid="filters-reset"
      >
        <FilterX />
      </Button>
      <div className="ml-auto flex flex-wrap items-center gap-2">
        {exportDecl && exportDecl.kind === "export"
          ? (
            <Button variant="outline" onClick={() => void list.exportCsv()} loading={list.exporting}>
              {list.exporting ? null : <Download />}
              {exportDecl.label ?? "Export"}
            </Button>
          )
          : null}
        {actions}
      </div>
    </div>
  );
}

/** The extra filters, in a popover; its button counts the ones set. */
function MoreFilters<T>({ list, filters }: { list: ListController<T>; filters: FilterDecl[] }) {
  const set = filters.filter((f) => ownedParams([f]).some((k) => list.params.has(k))).length;
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline" data-testid="more-filters">
          <SlidersHorizontal />
          Filters
          {set ? <span className="rounded-full bg-primary/10 px-1.5 text-xs text-primary">{set}</span> : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="flex w-auto max-w-[calc(100vw-2rem)] flex-col items-start gap-3">
        {filters.map((f, i) => <FilterControl key={i} list={list} decl={f} />)}
      </PopoverContent>
    </Popover>
  );
}

function FilterControl<T>({ list, decl }: { list: ListController<T>; decl: FilterDecl }) {
  switch (decl.kind) {
    case "search":
      return <SearchFilter list={list} placeholder={decl.placeholder} hint={decl.hint} />;
    case "multiSearch":
      return <MultiSearch list={list} decl={decl} />;
    case "select":
      return <SelectFilter list={list} decl={decl} />;
    case "status":
      return (
        <Select
          ariaLabel={decl.label ?? "Status"}
          className="w-36"
          value={list.status === "any" ? ALL : list.status}
          onValueChange={(v) => list.setParam(STATUS_PARAM, v === ALL ? null : v)}
          options={[
            { value: ALL, label: "Any status" },
            { value: "true", label: "Active" },
            { value: "false", label: "Inactive" },
          ]}
        />
      );
    case "sortBy": {
      const key = decl.key ?? "sortDate";
      return (
        <Select
          ariaLabel={decl.label ?? "Sort by"}
          className="w-36"
          value={list.params.get(key) ?? ALL}
          onValueChange={(v) => list.setParam(key, v === ALL ? null : v)}
          options={[{ value: ALL, label: "Any time" }, ...SORT_BY_OPTIONS]}
        />
      );
    }
    case "dateRange":
      return <DateRange list={list} decl={decl} />;
    case "links":
      return <MetadataLinks list={list} decl={decl} />;
    case "export":
      return null; // rendered at the end of the toolbar
  }
}

function SearchFilter<T>(
  { list, placeholder, hint }: { list: ListController<T>; placeholder?: string; hint?: string },
) {
  const { setParam } = list;
  const onSearch = React.useCallback((q: string) => setParam(SEARCH_PARAM, q || null), [setParam]);
  return <SearchInput value={list.search} placeholder={placeholder} hint={hint} onSearch={onSearch} />;
}

function SelectFilter<T>(
  { list, decl }: { list: ListController<T>; decl: Extract<FilterDecl, { kind: "select" }> },
) {
  const { options, loading } = useOptions(decl.source, decl.options);
  const values = selectValues(list.params, decl);
  if (decl.multiple) {
    return (
      <MultiSelect
        label={decl.label}
        options={options}
        value={values}
        loading={loading}
        onChange={(next) => list.setParam(decl.key, selectParam(decl, next))}
      />
    );
  }
  return (
    <Select
      ariaLabel={decl.label}
      className="w-auto min-w-36 max-w-60"
      value={values[0] ?? ALL}
      onValueChange={(v) => list.setParam(decl.key, selectParam(decl, v === ALL ? [] : [v]))}
      options={[{ value: ALL, label: `${decl.label}: All` }, ...options]}
      placeholder={decl.label}
    />
  );
}

function MultiSearch<T>(
  { list, decl }: { list: ListController<T>; decl: Extract<FilterDecl, { kind: "multiSearch" }> },
) {
  const current = list.params.get(LINES_PARAM) ?? "";
  const [open, setOpen] = React.useState(false);
  const [text, setText] = React.useState(current);
  const count = current.split(/\r?\n/).map((s) => s.trim()).filter(Boolean).length;
  return (
    <Popover
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) setText(current);
      }}
    >
      <PopoverTrigger asChild>
        <Button variant="outline">
          <ListFilter />
          {decl.label ?? "Multi search"}
          {count
            ? <span className="rounded-full bg-primary/10 px-1.5 text-xs text-primary">{count}</span>
            : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="flex w-80 flex-col gap-2">
        <label htmlFor="multi-search" className="text-sm font-medium">{decl.label ?? "Multi search"}</label>
        <Textarea
          id="multi-search"
          rows={6}
          placeholder={decl.placeholder ?? "One value per line"}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <div className="flex justify-end gap-2">
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setText("");
              list.setParam(LINES_PARAM, null);
              setOpen(false);
            }}
          >
            Clear
          </Button>
          <Button
            size="sm"
            onClick={() => {
              list.setParam(LINES_PARAM, text.trim() ? text : null);
              setOpen(false);
            }}
          >
            Apply
          </Button>
        </div>
      </PopoverContent>
    </Popover>
  );
}

function DateRange<T>(
  { list, decl }: { list: ListController<T>; decl: Extract<FilterDecl, { kind: "dateRange" }> },
) {
  const k = dateKeys(decl);
  const min = list.params.get(k.min) ?? "";
  const max = list.params.get(k.max) ?? "";
  const [error, setError] = React.useState<string | null>(null);
  // a refused date is not kept in its field: the fields always show the range the grid applies
  const [refusals, setRefusals] = React.useState(0);
  const errorId = React.useId();
  // the range last applied: the URL's new value reaches this render only after the router's transition,
  // so a second date typed right after the first is checked against what was applied, not a stale render
  const applied = React.useRef({ min, max });
  React.useEffect(() => {
    applied.current = { min, max };
  }, [min, max]);

  function set(which: "min" | "max", iso: string) {
    const nextMin = which === "min" ? iso : applied.current.min;
    const nextMax = which === "max" ? iso : applied.current.max;
    if (nextMin && nextMax && nextMax < nextMin) {
      setError("Max date cannot be before min date");
      setRefusals((n) => n + 1);
      return;
    }
    setError(null);
    applied.current = { min: nextMin, max: nextMax };
    list.setParam(which === "min" ? k.min : k.max, iso || null);
  }

  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center gap-2">
        <DateInput
          key={`min-${refusals}`}
          label="Min date"
          value={min}
          max={max || undefined}
          onChange={(v) => set("min", v)}
        />
        <span className="text-muted-foreground" aria-hidden="true">–</span>
        <DateInput
          key={`max-${refusals}`}
          label="Max date"
          value={max}
          min={min || undefined}
          onChange={(v) => set("max", v)}
          invalid={!!error}
          describedBy={error ? errorId : undefined}
        />
      </div>
      {error
        ? <p id={errorId} role="alert" className="text-xs font-medium text-destructive">{error}</p>
        : null}
    </div>
  );
}

type LinkEntry = { label?: string; url?: string } | string;

function MetadataLinks<T>(
  { list, decl }: { list: ListController<T>; decl: Extract<FilterDecl, { kind: "links" }> },
) {
  const raw = list.metadata?.[decl.metadataKey];
  const entries = (Array.isArray(raw) ? raw : []) as LinkEntry[];
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline">
          <Link2 /> {decl.label}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="flex w-96 max-w-[calc(100vw-2rem)] flex-col gap-2">
        <p className="font-medium">{decl.label}</p>
        {entries.length === 0
          ? <p className="text-muted-foreground">No links configured.</p>
          : (
            <ul className="flex flex-col gap-2">
              {entries.map((e, i) => {
                const url = typeof e === "string" ? e : e.url ?? "";
                const label = typeof e === "string" ? "" : e.label ?? "";
                return (
                  <li key={i} className="flex items-start gap-2">
                    <div className="min-w-0 flex-1">
                      {label ? <p className="text-xs font-medium text-muted-foreground">{label}</p> : null}
                      <code className="block break-all rounded bg-muted px-1.5 py-1 text-xs">{url}</code>
                    </div>
                    <Button
                      variant="ghost"
                      size="icon-sm"
                      aria-label={`Copy ${label || "link"}`}
                      onClick={async () => {
                        if (await copyText(url)) notify.success("Copied");
                      }}
                    >
                      <Copy />
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
      </PopoverContent>
    </Popover>
  );
}
