/**
 * The worker side of ./callback-thread.ts: builds, signs and sends each supplier callback it is
 * given through its outbound client (made once from the app's policy and limits, its connections
 * kept alive), and answers the status or the error. It holds no queue: the app's thread decides
 * what is sent and records every answer.
 */
/// <reference lib="deno.worker" />
import { Outbound } from "../common/outbound/client.ts";
import { deliverCallback, type ThreadAnswer, type ThreadMessage } from "./callback-thread.ts";

function serve() {
  let outbound: Outbound | null = null;
  self.onmessage = async (e: MessageEvent<ThreadMessage>) => {
    const m = e.data;
    if (m.type === "init") {
      outbound = new Outbound(m.policy, m.opts).pooled();
      return;
    }
    const answer = outbound
      ? await deliverCallback(outbound, m)
      : { id: 0, status: 0, error: "the callback worker has no client", refused: "" };
    self.postMessage({ ...answer, id: m.id } satisfies ThreadAnswer);
  };
}

serve();
