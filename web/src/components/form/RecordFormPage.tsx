/**
 * The add/edit page of one record, declared once per kind of record (a `RecordKind`): the page frame
 * (`RecordFormPage`: title, header line, back link; on the edit page the record's load with its
 * skeleton, not-found and retry states) and the form frame (`RecordForm`: the unsaved-changes guard,
 * POST for a new record or PUT for an edited one, the lists and pickers brought up to date, the
 * server's message, back to the list; Cancel and the submit button kept in view).
 *
 *     const CLIENT = { what: "client", list: { to: "/admin/client", label: "Clients" }, get: getClientCall,
 *       add: addClient, update: updateClientCall, recordKey: (id) => ["client", id] };
 *     <RecordFormPage kind={CLIENT} id={id} intro="…" describe={(c) => c.clientName}>
 *       {(client) => <ClientEditor client={client} />}
 *     </RecordFormPage>
 *     // in ClientEditor, with its own useSchemaForm:
 *     <RecordForm kind={CLIENT} form={form} record={client}>…sections…</RecordForm>
 */
import type * as React from "react";
import { useQuery } from "@tanstack/react-query";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import type { AnyContract, ResultOf } from "../../../../shared/api/contract.ts";
import { api } from "../../lib/api.ts";
import { type SaveRecordOptions, useSaveRecord } from "../../lib/save-record.ts";
import { PageHeader } from "../layout/PageHeader.tsx";
import { Form } from "./form.tsx";
import {
  BackLink,
  FormActions,
  type ListLink,
  LoadedRecord,
  quietNotFound,
  recordDescription,
} from "./FormParts.tsx";

/** A kind of record with an add/edit page: how it is named, loaded and saved. */
export type RecordKind<G extends AnyContract = AnyContract> = Omit<SaveRecordOptions, "back"> & {
  /** Its name in the page's words, lower case: "client" (Add Client, Loading the client…, Create client). */
  what: string;
  /** Its list: the back link, Cancel and where a save leads. */
  list: ListLink;
  /** The call that loads one by `:id` (e.g. getClientCall). */
  get: G;
  /** Its name in titles when not `what` capitalized ("Supplier Rule" for a "rule"). */
  title?: string;
  /** The submit button of the add form; "Create <what>" by default. */
  createLabel?: string;
  /** The loading skeleton's label; "Loading <what>" by default. */
  loadingLabel?: string;
  /** The width of the form and of the load's states; max-w-4xl by default. */
  width?: string;
};

/**
 * The values an edit form opens with: the add form's `empty` values, each replaced by the record's
 * own where it has one (not null). Fields whose form value differs from the record's (a number
 * edited as text) are set by the caller afterwards.
 */
export function valuesFrom<V extends Record<string, unknown>>(empty: V, record: object): V {
  const out: Record<string, unknown> = { ...empty };
  for (const key of Object.keys(empty)) {
    const v = (record as Record<string, unknown>)[key];
    if (v !== undefined && v !== null) out[key] = v;
  }
  return out as V;
}

const WIDTH = "max-w-4xl";

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The page: "Add Client" with `intro` under it, or "Edit Client" with the loaded record described,
 * and the editor (`children`) with the record to edit, or without one to add.
 */
export function RecordFormPage<G extends AnyContract>({
  kind,
  id,
  intro,
  describe,
  editIntro,
  children,
}: {
  kind: RecordKind<G>;
  /** The record's id from the route; undefined on the add page. */
  id: string | undefined;
  /** The header line of the add page. */
  intro: React.ReactNode;
  /** The header line of the edit page, once the record is loaded; `intro` on both pages without it. */
  describe?: (record: ResultOf<G>) => React.ReactNode;
  /** Instead of `describe`: the edit page's own fixed line, shown while loading too, not after a failed load. */
  editIntro?: React.ReactNode;
  children: (record: ResultOf<G> | undefined) => React.ReactNode;
}) {
  const record = useQuery({
    queryKey: kind.recordKey(id),
    enabled: !!id,
    queryFn: async ({ signal }) =>
      (await api(kind.get, { params: { id: id! } } as never, { signal, quiet: quietNotFound }))
        .result as ResultOf<G>,
  });
  const name = kind.title ?? capital(kind.what);
  return (
    <>
      <PageHeader
        title={id ? `Edit ${name}` : `Add ${name}`}
        description={!id
          ? intro
          : describe
          ? recordDescription(record, `Loading the ${kind.what}…`, describe)
          : editIntro !== undefined
          ? (record.isError ? undefined : editIntro)
          : intro}
        back={<BackLink to={kind.list.to}>{kind.list.label}</BackLink>}
      />
      {!id ? children(undefined) : (
        <LoadedRecord
          query={record}
          what={kind.what}
          list={kind.list}
          loadingLabel={kind.loadingLabel}
          className={kind.width ?? WIDTH}
        >
          {(loaded) => children(loaded)}
        </LoadedRecord>
      )}
    </>
  );
}

/**
 * The form of the page: guarded while unsaved; on submit the record is added (no `record`) or
 * updated, then the list opens with the server's message. Cancel leads back to the list.
 */
export function RecordForm<TIn extends FieldValues, TOut extends FieldValues>({
  kind,
  form,
  record,
  children,
}: {
  kind: RecordKind;
  form: UseFormReturn<TIn, unknown, TOut>;
  /** The record being edited; none on the add page. */
  record?: { _id: string };
  children: React.ReactNode;
}) {
  const save = useSaveRecord({ ...kind, back: kind.list.to });
  return (
    <Form
      form={form}
      onSubmit={(values) => save(values, record?._id)}
      guardUnsaved
      className={`flex ${kind.width ?? WIDTH} flex-col gap-5`}
    >
      {children}
      <FormActions
        cancelTo={kind.list.to}
        submitLabel={record ? "Save changes" : kind.createLabel ?? `Create ${kind.what}`}
      />
    </Form>
  );
}
