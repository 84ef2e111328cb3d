/**
 * A stand-in CNI daemon in its own process, for tests of the shim's synchronous exchange
 * (which blocks the JS thread, so the server cannot live in the test's own process).
 * `bun stand-in-daemon.ts SOCKET STATUS BODY_BASE64` answers every request with STATUS and
 * BODY; `echo` as the body answers with the request's length. Prints "ready" once listening.
 */
const [socket, status, body] = process.argv.slice(2);
if (socket === undefined || status === undefined || body === undefined) {
  console.error("usage: stand-in-daemon.ts SOCKET STATUS BODY_BASE64|echo");
  process.exit(2);
}
Bun.serve({
  unix: socket,
  fetch: async (req) =>
    new Response(body === "echo" ? `got ${(await req.text()).length}` : Buffer.from(body, "base64"), {
      status: Number(status),
    }),
});
console.log("ready");
