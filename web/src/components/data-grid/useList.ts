/**
 * One hook per list: page, page size, search and filters live in the URL (shareable, survive a
 * reload); the body is built from them; TanStack Query fetches the page and keeps the previous page
 * on screen while the next one loads. Row helpers keep the cache in step after a change.
 *
 * A large result comes back with a lower-bound total (`metadata.more`, "1,000+"); the exact figure
 * is then asked for in the background, once per set of filters (paging and sorting reuse it).
 */
import { useCallback, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ListBody, ListResult } from "../../../../shared/list.ts";
import { api, type ApiError, download } from "../../lib/api.ts";
import { saveBlob } from "../../lib/download.ts";
import { notify } from "../../lib/notify.ts";
import type { ListDecl } from "./types.ts";
import type { AnyContract } from "../../../../shared/api/contract.ts";
import {
  buildListBody,
  DIR_PARAM,
  ownedParams,
  readListState,
  SIZE_PARAM,
  SORT_PARAM,
} from "./list-params.ts";

export {
  dateKeys,
  DIR_PARAM,
  LINES_PARAM,
  SEARCH_PARAM,
  selectParam,
  selectValues,
  SIZE_PARAM,
  SORT_PARAM,
  STATUS_PARAM,
} from "./list-params.ts";
export type { StatusValue } from "./list-params.ts";

/** List calls leave their failures to the grid, all but a 401 (see `useList`). */
const inPlace = (e: ApiError) => e.status !== 401;

export type ListMeta = ListResult<unknown>["metadata"] & Record<string, unknown>;
type Page<T> = { data: T[]; metadata: ListMeta };

/** The list's call key (its cache key's head) and its name for the exported file. */
export function listIdentity<T, F extends string>(decl: ListDecl<T, F>) {
  return { key: decl.list.call.key, name: decl.exportName ?? decl.id ?? decl.list.id };
}

/** One page (or the exact count) of a list, through its declared call. */
function fetchPage<T>(decl: ListDecl<T, string>, body: ListBody, signal: AbortSignal) {
  const input = { body, params: decl.params } as never;
  return api(decl.list.call as never, input, { signal, quiet: inPlace }) as Promise<{ result: Page<T> }>;
}

export function useList<T, F extends string = string>(decl: ListDecl<T, F>) {
  const { key: listKey, name: exportName } = listIdentity(decl);
  const [params, setParams] = useSearchParams();
  const qc = useQueryClient();
  const filters = useMemo(() => decl.filters ?? [], [decl.filters]);
  const { pageNo, limit, search, status, pageSizes, defaultSize, pageParam } = readListState(params, decl);
  const paramsKey = params.toString();
  // rebuilt only when the URL changes, so the query key stays stable between renders
  const body: ListBody = useMemo(() => buildListBody(new URLSearchParams(paramsKey), decl), [
    paramsKey,
    decl,
  ]);

  // a list call with path parameters (one supplier's projects) caches each parameter's pages apart
  const pathParams = decl.params ?? null;
  const queryKey = useMemo(() => ["list", listKey, body, pathParams] as const, [listKey, body, pathParams]);

  // every list is shown by the DataGrid, which tells a failure in place (with Retry), so a notice
  // would only say it twice; but a 401 ends the session and leaves the grid: its notice says why
  const query = useQuery({
    queryKey,
    queryFn: async ({ signal }) => (await fetchPage<T>(decl as ListDecl<T, string>, body, signal)).result,
    placeholderData: keepPreviousData,
  });

  // the exact total of a large result: what matches does not depend on the page, size or order
  const countBody: ListBody = useMemo(() => {
    const { pageNo: _p, limit: _l, sortBy: _s, sortDir: _d, ...rest } = body;
    return { ...rest, pageNo: 1, limit: 1, count: "exact" };
  }, [body]);
  const countKey = useMemo(() => ["list", listKey, countBody, pathParams] as const, [
    listKey,
    countBody,
    pathParams,
  ]);
  const pageMeta = query.isPlaceholderData ? undefined : query.data?.metadata;
  const countQuery = useQuery({
    queryKey: countKey,
    // without the exact count the grid keeps the lower bound ("1,000+"): nothing to tell but a 401
    queryFn: async ({ signal }) =>
      (await fetchPage<T>(decl as ListDecl<T, string>, countBody, signal)).result,
    enabled: !!pageMeta?.more,
    staleTime: 30_000,
  });

  // ---- URL writers
  const update = useCallback((mutate: (p: URLSearchParams) => void, resetPage = true) => {
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      mutate(next);
      if (resetPage) next.delete(pageParam);
      return next;
    }, { replace: true });
  }, [setParams, pageParam]);

  const setPage = useCallback((n: number) => {
    update((p) => (n <= 1 ? p.delete(pageParam) : p.set(pageParam, String(n))), false);
  }, [update, pageParam]);

  const setPageSize = useCallback((n: number) => {
    update((p) => (n === defaultSize ? p.delete(SIZE_PARAM) : p.set(SIZE_PARAM, String(n))));
  }, [update, defaultSize]);

  /** Sets or drops a parameter; an empty string keeps the key, empty (a select's explicit none). */
  const setParam = useCallback((key: string, value: string | string[] | null) => {
    update((p) => {
      p.delete(key);
      if (value === "") return p.set(key, "");
      const values = value === null ? [] : Array.isArray(value) ? value : [value];
      for (const val of values) if (val !== "") p.append(key, val);
    });
  }, [update]);

  /** Orders the list by one of its declared sorts (a header's click), back to the first page. */
  const setSort = useCallback((key: string, dir: "asc" | "desc") => {
    update((p) => {
      p.set(SORT_PARAM, key);
      if (dir === "desc") p.set(DIR_PARAM, "desc");
      else p.delete(DIR_PARAM);
    });
  }, [update]);

  const resetFilters = useCallback(() => {
    update((p) => {
      for (const key of ownedParams(filters)) p.delete(key);
    });
  }, [update, filters]);

  const hasActiveFilters = ownedParams(filters).some((k) => params.has(k));

  // ---- cache helpers after a change
  const patchRow = useCallback((id: string, patch: Partial<T>) => {
    qc.setQueryData<Page<T>>(
      queryKey,
      (old) => old && { ...old, data: old.data.map((r) => (decl.rowId(r) === id ? { ...r, ...patch } : r)) },
    );
  }, [qc, queryKey, decl]);

  /** Removes the row and lowers the total at once, then refreshes the page in the background. */
  const removeRow = useCallback((id: string) => {
    const old = qc.getQueryData<Page<T>>(queryKey);
    if (old) {
      const data = old.data.filter((r) => decl.rowId(r) !== id);
      const removed = old.data.length - data.length;
      qc.setQueryData<Page<T>>(queryKey, {
        ...old,
        data,
        metadata: { ...old.metadata, total: Math.max(0, old.metadata.total - removed) },
      });
      qc.setQueryData<Page<T>>(
        countKey,
        (exact) =>
          exact &&
          { ...exact, metadata: { ...exact.metadata, total: Math.max(0, exact.metadata.total - removed) } },
      );
      if (data.length === 0 && pageNo > 1) setPage(pageNo - 1);
    }
    void qc.invalidateQueries({ queryKey: ["list", listKey], refetchType: "active" });
  }, [qc, queryKey, countKey, decl, pageNo, setPage]);

  const invalidate = useCallback(
    () => qc.invalidateQueries({ queryKey: ["list", listKey] }),
    [qc, listKey],
  );

  // ---- export of all matching rows
  const [exporting, setExporting] = useState(false);
  const exportCsv = useCallback(async () => {
    setExporting(true);
    try {
      const exportBody = { ...body, pageNo: 1 };
      const input = { body: exportBody, params: decl.params } as never;
      const { blob, filename } = await download(decl.list.call as never, input, { query: { format: "csv" } });
      saveBlob(blob, filename ?? `${exportName}.csv`);
      notify.success("Export ready");
    } catch {
      // the API client has shown the reason
    } finally {
      setExporting(false);
    }
  }, [body, decl, exportName]);

  const data = query.data;
  // exact when the page says so, or once the background count is in; else a lower bound
  const exactTotal = data?.metadata.more ? countQuery.data?.metadata.total : data?.metadata.total;
  return {
    decl,
    params,
    body,
    queryKey,
    query,
    rows: data?.data,
    metadata: data?.metadata,
    total: exactTotal ?? data?.metadata.total ?? 0,
    /** The total is a lower bound ("1,000+") until the exact count arrives. */
    totalIsLowerBound: !!data?.metadata.more && exactTotal === undefined,
    pageNo,
    limit,
    pageSizes,
    search,
    status,
    setPage,
    setPageSize,
    setParam,
    setSort,
    resetFilters,
    hasActiveFilters,
    patchRow,
    removeRow,
    invalidate,
    exportCsv,
    exporting,
  };
}

export type ListController<T> = ReturnType<typeof useList<T, string>>;

/**
 * A row's active switch: shows the new state at once, saves it (the update call with `{isActive}`), puts the row
 * back if the save fails, then refreshes the list, since with a status filter on the row may no
 * longer belong on the page (and the totals change). Returns `(row, isActive) => void`.
 */
export function useActiveSwitch<T extends { isActive: boolean; _id: string }>(
  list: ListController<T>,
  /** The record's update call (PUT, `:id`). */
  update: AnyContract,
) {
  const { patchRow, invalidate, decl } = list;
  const { mutate } = useMutation({
    mutationFn: ({ row, isActive }: { row: T; isActive: boolean }) =>
      api(update, { params: { id: row._id }, body: { isActive } } as never),
    onMutate: ({ row, isActive }) => patchRow(decl.rowId(row), { isActive } as Partial<T>),
    onSuccess: (res) => notify.success(res.message),
    onError: (_e, { row }) => patchRow(decl.rowId(row), { isActive: row.isActive } as Partial<T>),
    onSettled: () => void invalidate(),
  });
  return useCallback((row: T, isActive: boolean) => mutate({ row, isActive }), [mutate]);
}
