/** Options of a select filter or field: static, or loaded once from a lookup call (404 = none yet). */
import { useQuery } from "@tanstack/react-query";
import { api, ApiError } from "../../lib/api.ts";
import type { Option } from "../ui/select.tsx";
import type { OptionsSource } from "../data-grid/types.ts";

// deno-lint-ignore no-explicit-any
const defaultMap = (r: any): Option => ({
  value: String(r?._id ?? r?.value ?? ""),
  label: String(r?.label ?? r?.name ?? r?._id ?? ""),
});

export function useOptions(source: OptionsSource | undefined, fixed: Option[] = []) {
  const q = useQuery({
    queryKey: ["options", source?.call.key, source?.body ?? source?.query ?? null],
    enabled: !!source,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      try {
        const input = { body: source!.body, query: source!.query, params: source!.params } as never;
        const res = await api(source!.call as never, input, {
          signal,
          quiet: (e: ApiError) => e.status === 404,
        }) as { result: unknown[] };
        const list = Array.isArray(res.result) ? res.result : [];
        return list.map(source!.map ?? defaultMap).filter((o) => o.value !== "");
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return [] as Option[];
        throw e;
      }
    },
  });
  return {
    options: source ? q.data ?? [] : fixed,
    loading: !!source && q.isPending,
    error: q.isError,
  };
}
