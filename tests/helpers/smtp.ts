/** A real SMTP server on a loopback port (npm smtp-server) that keeps what it receives. */
import { SMTPServer } from "smtp-server";

export type Received = { from: string; to: string[]; raw: string };

/**
 * `failFirst` messages are refused with `failCode` (451, try later, by default) before any is taken;
 * `port` listens on that port (a server that comes back where it was).
 */
export async function startSmtp(opts: { failFirst?: number; failCode?: number; port?: number } = {}) {
  const messages: Received[] = [];
  let toFail = opts.failFirst ?? 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Uint8Array[] = [];
      stream.on("data", (d: Uint8Array) => chunks.push(d));
      stream.on("end", () => {
        if (toFail > 0) {
          toFail--;
          const code = opts.failCode ?? 451;
          const err = new Error(code >= 500 ? "No such mailbox" : "Mailbox busy, try again") as Error & {
            responseCode: number;
          };
          err.responseCode = code;
          return callback(err);
        }
        const raw = new TextDecoder().decode(
          chunks.reduce((a, b) => new Uint8Array([...a, ...b]), new Uint8Array()),
        );
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port nobody listens on (connection refused). */
export function closedPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = l.addr as Deno.NetAddr;
  l.close();
  return port;
}

/** Decodes a quoted-printable body enough to search it. */
export function decodeQp(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(
    /=([0-9A-F]{2})/g,
    (_m, h: string) => String.fromCharCode(parseInt(h, 16)),
  );
}
