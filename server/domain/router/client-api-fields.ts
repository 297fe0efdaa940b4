/** The API fields of a client the router reads for an API-integrated client (client-api.ts). */
/** A client's API fields as the router reads them (ProjectConfig.clientApi; client-api.ts makes the call). */
export type ClientApi = {
  clientId: string;
  apiUrl: string;
  apiKey: string;
  apiHeader: string;
  apiFunctionHeader: string;
  apiFunction: string;
  apiParams: string;
  apiBody: string;
  apiResponseVar: string;
  variableMapping: string;
  identifierMapping: string;
};

/** The columns of the clients table ClientApi is read from. */
export const CLIENT_API_COLUMNS = [
  "apiUrl",
  "apiKey",
  "apiHeader",
  "apiFunctionHeader",
  "apiFunction",
  "apiParams",
  "apiBody",
  "apiResponseVar",
  "variableMapping",
  "identifierMapping",
] as const;
