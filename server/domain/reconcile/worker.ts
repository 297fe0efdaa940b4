/**
 * The worker side of ./offthread.ts: parses one large identifier file away from the app's thread
 * (the one that serves respondents), with the same parser and rules, answers once and ends. A
 * parse that throws is the worker's error event, which the app answers by parsing on its thread.
 */
/// <reference lib="deno.worker" />
import { parseIdentifierFile } from "../../../shared/reconcile-file.ts";
import type { OffThreadParse, OffThreadRequest } from "./offthread.ts";

self.onmessage = (e: MessageEvent<OffThreadRequest>) => {
  const r = parseIdentifierFile(e.data.csv, e.data.max);
  // one string back (identifiers hold no whitespace): far cheaper to pass than 100,000 strings
  const reply: OffThreadParse = r.ok
    ? (({ identifiers, ...rest }) => ({ ok: true, value: { ...rest, joined: identifiers.join("\n") } }))(
      r.value,
    )
    : r;
  self.postMessage(reply);
  self.close();
};
