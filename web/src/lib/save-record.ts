/**
 * What every add/edit form page does on submit, once: POST the new record or PUT the edited one,
 * bring the lists (and the pickers that offer such records) up to date, forget the cached record,
 * show the server's message and go back to the list.
 */
import { type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { api, callKey } from "./api.ts";
import type { AnyContract } from "../../../shared/api/contract.ts";
import { notify } from "./notify.ts";

export type SaveRecordOptions = {
  /** The call that adds a record (e.g. addClient). */
  add: AnyContract;
  /** The call that updates one by `:id` (e.g. updateClientCall). */
  update: AnyContract;
  /** The cached record's query key (forgotten after a save so the next edit loads it afresh). */
  recordKey: (id: string | undefined) => QueryKey;
  /** Where to go afterwards (the list). */
  back: string;
  /** Lists to refresh; every grid's list by default. */
  lists?: QueryKey;
  /** Pickers offering such records (their lookup calls), dropped so they load the change. */
  pickers?: AnyContract[];
};

/** `save(values, id?)`: add when there is no id, update otherwise; resolves after navigating. */
export function useSaveRecord<T>(opts: SaveRecordOptions) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return async function save(values: unknown, id?: string): Promise<T> {
    const { add, update } = opts;
    const res =
      await (id
        ? api(update, { params: { id }, body: values } as never)
        : api(add, { body: values } as never)) as { result: T; message: string };
    await qc.invalidateQueries({ queryKey: opts.lists ?? ["list"] });
    qc.removeQueries({ queryKey: opts.recordKey(id) });
    for (const p of opts.pickers ?? []) {
      qc.removeQueries({ queryKey: ["options", ...callKey(p)] });
    }
    notify.success(res.message);
    navigate(opts.back);
    return res.result;
  };
}
