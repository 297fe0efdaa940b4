/**
 * The worker side of ./offthread.ts: a large upload's reads, away from the app's thread (the one
 * that serves respondents). It parses an identifier file, or opens its own connection to the app's
 * database file and reads the upload's chunks (classifyChunk) on request. It never writes.
 */
/// <reference lib="deno.worker" />
import { openDatabase } from "../../db/connection.ts";
import { parseIdentifierFile } from "../../../shared/schemas/reconcile.ts";
import { classifyChunk } from "./classify.ts";
import type { WorkerReply, WorkerRequest } from "./offthread.ts";

let reading: {
  handle: Awaited<ReturnType<typeof openDatabase>>;
  ids: string[];
  scope: string[];
  chunk: number;
} | null = null;

async function run(m: Exclude<WorkerRequest, { op: "close" }>): Promise<unknown> {
  switch (m.op) {
    case "parse": {
      const r = parseIdentifierFile(m.csv, m.max);
      if (!r.ok) return r;
      // one string back (identifiers hold no whitespace): far cheaper to pass than 100,000 strings
      const { identifiers, ...rest } = r.value;
      return { ok: true, value: { ...rest, joined: identifiers.join("\n"), count: identifiers.length } };
    }
    case "open": {
      const handle = await openDatabase(m.url, m.authToken);
      // reads of a chunk at a time: a modest page cache, no memory map of the whole file
      await handle.client.execute("PRAGMA mmap_size = 0");
      await handle.client.execute("PRAGMA cache_size = -16384");
      reading = { handle, ids: m.ids ? m.ids.split("\n") : [], scope: m.scope, chunk: m.chunk };
      return null;
    }
    case "classify": {
      if (!reading) throw new Error("the reader is not open");
      const from = m.index * reading.chunk;
      return await classifyChunk(
        reading.handle.db,
        reading.scope,
        reading.ids.slice(from, from + reading.chunk),
      );
    }
  }
}

/** Requests are answered one at a time, in order (a read never starts before the open is done). */
let queue = Promise.resolve();

self.onmessage = (e: MessageEvent<WorkerRequest>) => {
  const m = e.data;
  queue = queue.then(async () => {
    let reply: WorkerReply;
    try {
      if (m.op === "close") {
        await reading?.handle.close();
        reading = null;
        reply = { id: m.id, ok: true, value: null };
      } else reply = { id: m.id, ok: true, value: await run(m) };
    } catch (err) {
      reply = { id: m.id, ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    self.postMessage(reply);
    if (m.op === "close") self.close();
  });
};
