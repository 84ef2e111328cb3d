/**
 * One HTTP/1.1 exchange over a unix socket with `Bun.connect`, asynchronous: for a caller
 * that must keep its event loop turning while it waits (a test that runs the daemon and
 * the shim in one process). The shim's own process uses the synchronous exchange
 * (`unix-exchange.ts`), which is ~4 ms shorter in a one-shot process (docs/PERFORMANCE.md).
 */
import type { HttpAnswer } from "./unix-exchange.ts";

/**
 * POSTs `body` to `path` on the unix socket and reads the answer to the end of the
 * stream; rejects with the connect error (its `code`: ENOENT, ECONNREFUSED) or when the
 * answer is not HTTP.
 */
export function postUnix(socketPath: string, path: string, body: string): Promise<HttpAnswer> {
  const payload = new TextEncoder().encode(body);
  const head = `POST ${path} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${payload.length}\r\nconnection: close\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let settled = false;
    const finish = (): void => {
      if (settled) return;
      settled = true;
      const text = Buffer.concat(chunks).toString("utf8");
      const status = /^HTTP\/1\.[01] (\d{3}) /.exec(text);
      const split = text.indexOf("\r\n\r\n");
      if (status === null || split < 0) reject(new Error("the CNI daemon's answer is not HTTP"));
      else resolve({ status: Number(status[1]), body: text.slice(split + 4) });
    };
    Bun.connect<Uint8Array | undefined>({
      unix: socketPath,
      data: undefined,
      socket: {
        open(s) {
          s.write(head);
          let at = 0;
          while (at < payload.length) {
            const n = s.write(payload.subarray(at));
            if (n <= 0) break;
            at += n;
          }
          if (at < payload.length) s.data = payload.subarray(at);
        },
        drain(s) {
          const rest = s.data;
          if (rest === undefined) return;
          const n = s.write(rest);
          s.data = n < rest.length ? rest.subarray(Math.max(n, 0)) : undefined;
        },
        data(_s, chunk) {
          chunks.push(new Uint8Array(chunk));
        },
        end(s) {
          s.end();
          finish();
        },
        close: finish,
        error(_s, err) {
          if (!settled) {
            settled = true;
            reject(err);
          }
        },
      },
    }).catch((err: unknown) => {
      if (!settled) {
        settled = true;
        reject(err);
      }
    });
  });
}
