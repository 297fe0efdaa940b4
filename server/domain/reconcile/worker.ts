/**
 * The worker side of ./offthread.ts: parses a large identifier file away from the app's thread
 * (the one that serves respondents), with the same parser and rules.
 */
/// <reference lib="deno.worker" />
import { parseIdentifierFile } from "../../../shared/schemas/reconcile.ts";
import type { WorkerReply, WorkerRequest } from "./offthread.ts";

function run(m: WorkerRequest): unknown {
  const r = parseIdentifierFile(m.csv, m.max);
  if (!r.ok) return r;
  // one string back (identifiers hold no whitespace): far cheaper to pass than 100,000 strings
  const { identifiers, ...rest } = r.value;
  return { ok: true, value: { ...rest, joined: identifiers.join("\n"), count: identifiers.length } };
}

self.onmessage = (e: MessageEvent<WorkerRequest>) => {
  const m = e.data;
  let reply: WorkerReply;
  try {
    reply = { id: m.id, ok: true, value: run(m) };
  } catch (err) {
    reply = { id: m.id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  self.postMessage(reply);
  self.close();
};
