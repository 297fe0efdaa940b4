/**
 * What each API field of a client record does (issue 23 item 5; server/domain/router/client-api.ts
 * makes the call): the client form shows these as the fields' help, so staff wiring a client's
 * survey platform read what the router really does.
 */
export const CLIENT_API_HELP = {
  isApiIntegration:
    "Each respondent's survey link comes from the client's platform: the router calls the API below for every respondent it sends, and a call that fails sends the respondent to Survey Close (counted on the project's Security stats).",
  isScreenUrlIntegration:
    "The client's link opens its own screener: Samplex's pre-screen questions are not shown on this client's projects.",
  apiUrl:
    "The endpoint that answers a survey link. [uid], [sid], [pid] and the names of the variable mapping may stand in it.",
  apiKey: "Sent in the header that API header names (Authorization: Bearer <key> when none does).",
  apiHeader:
    'The header that carries the API key (X-Api-Key, or Authorization for "Bearer <key>"), or headers sent as they are: one "Name: value" per line or a JSON object, [apiKey] standing for the key.',
  apiFunction:
    "GET, POST or PUT: the HTTP method. Any other text names a function of the client's API, sent in the function header (then POST with a body, GET without).",
  apiFunctionHeader:
    'The header that carries the function name (default X-Api-Function), or "Name: value" lines where [function] stands for it.',
  apiParams:
    "Query parameters, one name=value per line (or name=value&name=value); values may use [uid], [sid], [pid] and the mapped names.",
  apiBody:
    'A JSON body sent with the call; variables in its texts are filled in, e.g. {"respondent": "[uid]", "panel": "[sid]"}.',
  apiResponseVar:
    "Where the link is in the JSON answer, as a dot path: data.surveyLink, links.0.url. Blank: url. It must be an http(s) link.",
  variableMapping:
    "The client's names for our variables, name=[variable] per line (rid=[uid]). Each name may be written in the URL, parameters and body; one none of them places is sent as a query parameter.",
  identifierMapping:
    "Which identifier the client's return carries, param=source: the return's parameter (default uid) and what it holds, a variable (rid=[sid]) or the path of the client's own respondent id in the API answer (token=data.respondentId). Returns and reconcile uploads find the respondent by it.",
} as const;
