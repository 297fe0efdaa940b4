/** What the outbound client (client.ts) asks of the network under it (http1.ts; a fetch in tests). */

export type OutboundRequest = {
  method?: "GET" | "POST" | "PUT";
  headers?: Record<string, string>;
  body?: string;
};

export type OutboundResponse = { status: number; headers: Headers; body: Uint8Array; url: string };

/** One HTTP exchange with the checked address; no redirects followed. */
export type Transport = (x: {
  url: URL;
  address: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  connectTimeoutMs: number;
  deadline: AbortSignal;
  maxBytes: number;
  caCerts?: string[];
}) => Promise<Omit<OutboundResponse, "url">>;
