/**
 * The supply API (`/supply/v1`, issue 23): a supplier's programmatic window. Every call carries one of
 * the supplier's API keys in the `X-Api-Key` header (never in the URL: a key in the query string is
 * refused with 400), and the key's supplier scopes every row; the permission table's roles do not
 * apply. Answers are the API's envelope `{ result, message }`; errors `{ message, errors? }`, 401
 * without a valid key.
 */
import type * as v from "valibot";
import { type Method, type Returns, returns } from "./contract.ts";
import type { QuestionType } from "../schemas/library.ts";

/** Where the supply API is mounted; its paths below are relative to it. */
export const SUPPLY_BASE = "/supply/v1";
export { API_KEY_HEADER } from "./supplier-api-keys.ts";

/** The query parameter names a key must never travel in (refused with 400, naming the header). */
export const KEY_QUERY_NAMES = ["api_key", "apikey", "api-key", "key", "x-api-key", "token", "access_token"];

/** One call of the supply API: method, path under SUPPLY_BASE, query schema and result type. */
export type SupplyContract<M extends Method = Method, P extends string = string, R = unknown> = {
  method: M;
  path: P;
  query?: v.GenericSchema;
  /** The JSON body a POST takes. */
  body?: v.GenericSchema;
  result: Returns<R>;
  /** Answers CSV instead of JSON when the request sends `Accept: text/csv`. */
  csv?: boolean;
  /** Answers an `ETag` and 304 to an `If-None-Match` naming it. */
  etag?: boolean;
  /** What the call does, in a sentence or two, for the reference. */
  doc?: string;
  /** "METHOD /supply/v1/path". */
  key: `${M} ${typeof SUPPLY_BASE}${P}`;
};

export function defineSupplyCall<const M extends Method, const P extends string, R>(
  def: Omit<SupplyContract<M, P, R>, "key">,
): SupplyContract<M, P, R> {
  return { ...def, key: `${def.method} ${SUPPLY_BASE}${def.path}` };
}

/** An answer of a library question, by the id a panel maps its own profile answers to. */
export type SupplyAnswer = { id: string; text: string };

/** A library question as a panel maps its profile data to it. */
export type SupplyQuestion = {
  id: string;
  /** The title in the question's own language. */
  text: string;
  /** Titles by language code. */
  texts: Record<string, string>;
  languageId: string;
  /** TEXT takes free text; RADIO and DROPDOWN one answer; CHECKBOX several; MAP a mapped choice. */
  type: QuestionType;
  /** The answers a respondent may give (none for TEXT). */
  answers: SupplyAnswer[];
};

/** `GET /supply/v1/questions`: the library's active questions and their enabled answers, in order. */
export const supplyQuestionsCall = defineSupplyCall({
  method: "GET",
  path: "/questions",
  doc: "The library's questions and their answers, with the ids the entry link's known answers " +
    "(`q_<questionId>=<answerId>[,<answerId>]`) and the surveys' qualifications use: map your profile data once.",
  result: returns<{ data: SupplyQuestion[] }>(),
});
