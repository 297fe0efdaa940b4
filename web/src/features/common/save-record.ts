/**
 * What every add/edit form page does on submit, once: POST the new record or PUT the edited one,
 * bring the lists (and the pickers that offer such records) up to date, forget the cached record,
 * show the server's message and go back to the list.
 */
import { type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { api } from "../../lib/api.ts";
import { notify } from "../../lib/notify.ts";

export type SaveRecordOptions = {
  /** POST path of a new record, e.g. "/admin/client/add". */
  add: string;
  /** PUT path of an existing one, e.g. (id) => `/admin/client/update/${id}`. */
  update: (id: string) => string;
  /** The cached record's query key (forgotten after a save so the next edit loads it afresh). */
  recordKey: (id: string | undefined) => QueryKey;
  /** Where to go afterwards (the list). */
  back: string;
  /** Lists to refresh; every grid's list by default. */
  lists?: QueryKey;
  /** Pickers offering such records (their option lists), dropped so they load the change. */
  pickers?: string[];
};

/** `save(values, id?)`: add when there is no id, update otherwise; resolves after navigating. */
export function useSaveRecord<T>(opts: SaveRecordOptions) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return async function save(values: unknown, id?: string): Promise<T> {
    const res = id ? await api.put<T>(opts.update(id), values) : await api.post<T>(opts.add, values);
    await qc.invalidateQueries({ queryKey: opts.lists ?? ["list"] });
    qc.removeQueries({ queryKey: opts.recordKey(id) });
    for (const path of opts.pickers ?? []) qc.removeQueries({ queryKey: ["options", path] });
    notify.success(res.message);
    navigate(opts.back);
    return res.result;
  };
}
