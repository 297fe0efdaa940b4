/**
 * A supplier's signed callbacks (issue 23, item 3): the delivery log and the redeliver action, for
 * staff who edit suppliers (`/admin/supplier/:id/callbacks`) and for the supplier's own SUPPLIER
 * users (`/supplier/callbacks`, scoped on the server to the user's supplier, never by an id sent);
 * and the callback URLs per event, which the supplier edits in its portal (staff edit them on the
 * supplier form). Each URL is checked against the outbound policy when saved.
 */
import { defineCall, returns } from "./contract.ts";
import { defineList, ListBody, type ListResult } from "../list.ts";
import { CALLBACK_URL_KEYS, CallbackUrlsForm } from "../schemas/supplier.ts";
import type { CallbackEvent } from "../callbacks.ts";

export { CALLBACK_EVENTS, type CallbackEvent } from "../callbacks.ts";

/** A callback's delivery state: queued (or due again), sending, delivered, failed (given up or refused). */
export const CALLBACK_STATES = ["queued", "sending", "sent", "failed"] as const;
export type CallbackState = (typeof CALLBACK_STATES)[number];

export const CALLBACK_EVENT_LABELS: Record<CallbackEvent, string> = {
  complete: "Complete",
  terminate: "Terminate",
  overquota: "Over quota",
  quality: "Quality term",
  reconcile: "Reconcile change",
  approved: "Approved",
};
export const CALLBACK_STATE_LABELS: Record<CallbackState, string> = {
  queued: "Queued",
  sending: "Sending",
  sent: "Delivered",
  failed: "Failed",
};

/** A line of the delivery log. */
export type SupplierCallbackRow = {
  _id: string;
  event: CallbackEvent;
  state: CallbackState;
  /** The respondent session (its uid). */
  sessionId: string;
  /** The idempotency key it is sent with. */
  key: string;
  /** The URL as configured (its variables filled when sent). */
  url: string;
  attempts: number;
  /** The last answer ("HTTP 200") or error ("HTTP 500", "Refused: ...", a time-out); '' before any. */
  lastAnswer: string;
  redeliveries: number;
  createdAt: string;
  updatedAt: string;
  /** When it is (next) due; while sending, when its sender's lease ends. */
  nextAt: string;
};

const LOG_COLUMNS = [
  { key: "createdAt", header: "Queued", value: (r: SupplierCallbackRow) => r.createdAt },
  {
    key: "event",
    header: "Event",
    value: (r: SupplierCallbackRow) => CALLBACK_EVENT_LABELS[r.event] ?? r.event,
  },
  {
    key: "state",
    header: "State",
    value: (r: SupplierCallbackRow) => CALLBACK_STATE_LABELS[r.state] ?? r.state,
  },
  { key: "attempts", header: "Attempts", value: (r: SupplierCallbackRow) => r.attempts },
  { key: "lastAnswer", header: "Last answer", value: (r: SupplierCallbackRow) => r.lastAnswer },
  { key: "updatedAt", header: "Last attempt", value: (r: SupplierCallbackRow) => r.updatedAt },
  { key: "sessionId", header: "Session", value: (r: SupplierCallbackRow) => r.sessionId },
  { key: "key", header: "Idempotency key", value: (r: SupplierCallbackRow) => r.key },
] as const;

// ---------------------------------------------------------------- staff (any supplier)

export const supplierCallbacksCall = defineCall({
  method: "POST",
  path: "/admin/supplier/:id/callbacks",
  ids: { id: "Supplier" },
  body: ListBody,
  csv: true,
  result: returns<ListResult<SupplierCallbackRow>>(),
});
export const supplierCallbacksList = defineList<SupplierCallbackRow>()({
  id: "supplier-callbacks",
  call: supplierCallbacksCall,
  filters: { state: "text", event: "text" },
  sorts: [],
  columns: LOG_COLUMNS,
});
export const redeliverSupplierCallbackCall = defineCall({
  method: "POST",
  path: "/admin/supplier/:id/callbacks/:callbackId/redeliver",
  ids: { id: "Supplier" },
  result: returns<SupplierCallbackRow>(),
});

// ---------------------------------------------------------------- portal (the user's own supplier)

export const portalCallbacksCall = defineCall({
  method: "POST",
  path: "/supplier/callbacks",
  body: ListBody,
  csv: true,
  result: returns<ListResult<SupplierCallbackRow>>(),
});
export const portalCallbacksList = defineList<SupplierCallbackRow>()({
  id: "callbacks",
  call: portalCallbacksCall,
  filters: { state: "text", event: "text" },
  sorts: [],
  columns: LOG_COLUMNS,
});
export const redeliverPortalCallbackCall = defineCall({
  method: "POST",
  path: "/supplier/callbacks/:callbackId/redeliver",
  result: returns<SupplierCallbackRow>(),
});

/**
 * The supplier's callback URLs as its portal shows them, with the last refusal of the complete's and
 * its signing secret (the hash key) masked: revealing it is its own call.
 */
export type CallbackUrls = CallbackUrlsForm & { approvedHookRefusal: string; hashKey: string };

/** The supplier's signing secret, whole: what its receiver verifies `X-Samplex-Signature` with. */
export type CallbackSecret = { hashKey: string };

export const portalCallbackUrlsCall = defineCall({
  method: "GET",
  path: "/supplier/callback-urls",
  result: returns<CallbackUrls>(),
});
export const updatePortalCallbackUrlsCall = defineCall({
  method: "PUT",
  path: "/supplier/callback-urls",
  body: CallbackUrlsForm,
  outboundUrls: CALLBACK_URL_KEYS,
  result: returns<CallbackUrls>(),
});

/** Reveals the supplier's own signing secret (written to the system log). */
export const revealPortalCallbackSecretCall = defineCall({
  method: "POST",
  path: "/supplier/callback-secret",
  result: returns<CallbackSecret>(),
});
/** Replaces the supplier's signing secret with a new random one, shown in the answer (system log). */
export const rotatePortalCallbackSecretCall = defineCall({
  method: "POST",
  path: "/supplier/callback-secret/rotate",
  result: returns<CallbackSecret>(),
});
