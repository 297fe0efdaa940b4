/** Network stand-ins for the outbound client's tests. */

/** A TCP listener on loopback that accepts every connection and never writes a byte. */
export function silentServer() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })().catch(() => {});
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    /** The connections it took, in order. */
    held,
    port,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      listener.close();
      held.forEach((c) => c.close());
      await accepting;
    },
  };
}
