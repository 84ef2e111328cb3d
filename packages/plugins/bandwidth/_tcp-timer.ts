/**
 * A test helper run in its own process inside a network namespace (`ip netns exec`):
 * `recv ADDR PORT` accepts one TCP connection and prints `<bytes> <ms>` (first byte to end
 * of stream) when it closes; `send ADDR PORT BYTES` connects and writes that many bytes.
 * Bun sockets, so no nc/iperf3 is needed.
 */
export {};

const [mode, host, portText, bytesText] = process.argv.slice(2);
const port = Number(portText);

if (mode === "recv") {
  let bytes = 0;
  let first = 0;
  const server = Bun.listen({
    hostname: host ?? "",
    port,
    socket: {
      data(_s, chunk) {
        if (first === 0) first = performance.now();
        bytes += chunk.length;
      },
      close() {
        console.log(`${bytes} ${Math.round(performance.now() - first)}`);
        server.stop(true);
        process.exit(0);
      },
    },
  });
  console.log("listening");
} else if (mode === "send") {
  const total = Number(bytesText);
  const chunk = new Uint8Array(64 * 1024);
  let sent = 0;
  const pump = (s: { write(b: Uint8Array): number; end(): void }) => {
    while (sent < total) {
      const n = s.write(chunk.subarray(0, Math.min(chunk.length, total - sent)));
      sent += n;
      if (n === 0) return;
    }
    s.end();
  };
  await Bun.connect({
    hostname: host ?? "",
    port,
    socket: { open: pump, drain: pump, close: () => process.exit(0), data() {} },
  });
} else {
  console.error("usage: _tcp-timer.ts recv|send ADDR PORT [BYTES]");
  process.exit(2);
}
