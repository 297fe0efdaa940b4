/**
 * One contract per API call: its method and path, what it takes (path ids, query, body: the valibot
 * schemas that validate them), what it answers (the result type), and who may make it (the roles of
 * the permission table). The server registers a handler typed by the contract
 * (`server/http/api.ts`), the web app calls it through one typed client (`web/src/lib/api.ts`), and
 * no feature file spells a path. Declare each area's calls in `shared/api/<area>.ts`.
 */
import type * as v from "valibot";
import { API } from "../permissions.ts";
import type { Role } from "../roles.ts";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** The `:name` parameters of a path, as an object type: `/a/:id/b/:projectId` -> `{ id; projectId }`. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name | keyof PathParams<`/${Rest}`>]: string }
  : P extends `${string}:${infer Name}` ? { [K in Name]: string }
  : Record<never, never>;

/** A result type carried by a contract (types only: nothing is checked at run time). */
export type Returns<T> = { readonly __returns?: (t: T) => T };
/** Declares what a call answers with: `result: returns<ClientRecord>()`. */
export function returns<T>(): Returns<T> {
  return {};
}

type Schema = v.GenericSchema;

export type CallDef<
  M extends Method,
  P extends string,
  B extends Schema | undefined,
  Q extends Schema | undefined,
  R,
> = {
  method: M;
  path: P;
  /** Validates the JSON body (POST, PUT). */
  body?: B;
  /** Validates the query string (an object of strings). */
  query?: Q;
  /**
   * Path parameters that are record ids, with the record's name: a value that is not one of our ids
   * is that record not found (`{ id: "Client" }` -> 404 "Client not found").
   */
  ids?: { [K in keyof PathParams<P>]?: string };
  /**
   * Body fields holding a URL the server will call (hooks, callbacks): past the schema, the registrar
   * checks each against the outbound policy (no internal address in any spelling, http(s) on a port
   * it calls, OUTBOUND_ALLOW's exceptions) and refuses a URL that breaks it with a 400 naming the rule.
   */
  outboundUrls?: readonly string[];
  result: Returns<R>;
  /** Answers `?format=csv` with the streamed CSV of the same body (list calls). */
  csv?: boolean;
  /**
   * The media type of an answer that is not the JSON envelope: a file (PDF, PNG, CSV) or a stream of
   * server-sent events. The API reference documents that type; absent, the call answers JSON.
   */
  media?: "application/pdf" | "image/png" | "text/csv" | "text/event-stream";
  /** The call refuses too many attempts in a row with 429 (the sign-in throttle). */
  throttled?: boolean;
  /** Anyone may call it (sign-in only). */
  public?: boolean;
  /** Body size limit in bytes when larger than the API's default (uploads). */
  bodyLimit?: number;
  /**
   * Body fields that carry a file's contents as sent (an upload): the handler reads them and says
   * what is wrong with a binary file, so the registrar's control-character check leaves them alone.
   */
  fileFields?: readonly string[];
};

export type Contract<
  M extends Method = Method,
  P extends string = string,
  B extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  R = unknown,
> = CallDef<M, P, B, Q, R> & {
  /** "METHOD /path", the permission table's key. */
  key: `${M} ${P}`;
  /** Who may make the call (empty for a public call). */
  roles: readonly Role[];
};

/** Any contract, for code that handles them all alike (the registrar, the client). */
// deno-lint-ignore no-explicit-any
export type AnyContract = Contract<Method, string, any, any, any>;

/** Declares a call; its roles come from the permission table (a call without an entry fails at load). */
export function defineCall<
  const M extends Method,
  const P extends string,
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  R = unknown,
>(def: CallDef<M, P, B, Q, R>): Contract<M, P, B, Q, R> {
  const key = `${def.method} ${def.path}` as `${M} ${P}`;
  const roles = def.public ? [] : API[key];
  if (!roles) throw new Error(`No permission entry for "${key}": add it to shared/permissions.ts`);
  return { ...def, key, roles };
}

// ---------------------------------------------------------------- what a contract implies

export type ResultOf<C> = C extends { result: Returns<infer R> } ? R : never;
export type ParamsOf<C> = C extends { path: infer P extends string } ? PathParams<P> : never;
/** The body a caller sends (the schema's input: defaults may be left out). */
export type BodyIn<C> = C extends { body?: infer B } ? B extends Schema ? v.InferInput<B> : undefined : never;
/** The body a handler gets (validated, defaults applied). */
export type BodyOut<C> = C extends { body?: infer B } ? B extends Schema ? v.InferOutput<B> : undefined
  : never;
export type QueryIn<C> = C extends { query?: infer Q } ? Q extends Schema ? v.InferInput<Q> : undefined
  : never;
export type QueryOut<C> = C extends { query?: infer Q } ? Q extends Schema ? v.InferOutput<Q> : undefined
  : never;

/** What an update call answers when it soft-deleted the record. */
export type Deleted = { _id: string; isDeleted: true };

type KeysOf<T> = keyof T extends never ? never : keyof T;
/** What a caller passes: the path's params, the body and the query, each only when the call has one. */
export type CallInput<C> =
  & (KeysOf<ParamsOf<C>> extends never ? { params?: undefined } : { params: ParamsOf<C> })
  & (BodyIn<C> extends undefined ? { body?: undefined } : { body: BodyIn<C> })
  & (QueryIn<C> extends undefined ? { query?: undefined } : { query?: QueryIn<C> });

/** The concrete path of a call: `/admin/client/update/:id` with `{ id: "abc" }` -> `/admin/client/update/abc`. */
export function pathOf(contract: AnyContract, params?: Record<string, string>): string {
  return contract.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === "") {
      throw new Error(`${contract.key}: missing path parameter "${name}"`);
    }
    return encodeURIComponent(value);
  });
}
