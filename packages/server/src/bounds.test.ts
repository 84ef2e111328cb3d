/**
 * The daemon's bounds and controls (issue 16 item 3, issue 11 item 2) with real requests
 * on its real socket: oversized bodies and headers, stalled headers and bodies, too many
 * connections, a full queue, same-container ordering, the drain, the probes and metrics.
 * Plugins are an in-memory Exec whose calls the test holds and releases.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Exec, ExecOutcome, ExecRequest } from "@tscni/invoke";
import { PodNetworkManager } from "@tscni/runtime";
import { makeSandbox, type Sandbox } from "@tscni/runtime/testing";
import { startDaemon, type CniDaemon } from "./daemon.ts";
import type { DaemonLimits } from "./limits.ts";
import { encodeRequest } from "./wire.ts";

const POD_ARGS = "K8S_POD_NAMESPACE=ns;K8S_POD_NAME=web";
const env = (command: string, id: string): Record<string, string> => ({
  CNI_COMMAND: command,
  CNI_CONTAINERID: id,
  CNI_NETNS: `/run/netns/${id}`,
  CNI_IFNAME: "eth0",
  CNI_ARGS: POD_ARGS,
  CNI_PATH: "/x",
});
const body = (command: string, id: string): string =>
  encodeRequest(env(command, id), new TextEncoder().encode('{"cniVersion":"1.0.0"}'));

/** Plugin calls the test can hold: `hold(id)` makes that container's calls wait for `release(id)`. */
class HeldExec implements Exec {
  readonly started: string[] = [];
  readonly #held = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  constructor(private readonly inner: Exec) {}
  hold(id: string): void {
    let resolve = (): void => {};
    const promise = new Promise<void>((r) => (resolve = r));
    this.#held.set(id, { promise, resolve });
  }
  release(id: string): void {
    this.#held.get(id)?.resolve();
    this.#held.delete(id);
  }
  findInPath(name: string, paths: readonly string[]): Promise<string> {
    return this.inner.findInPath(name, paths);
  }
  async execPlugin(_path: string, req: ExecRequest): Promise<ExecOutcome> {
    const id = req.env.CNI_CONTAINERID ?? "";
    if (req.env.CNI_COMMAND === "VERSION")
      return {
        stdout: new TextEncoder().encode('{"cniVersion":"1.1.0","supportedVersions":["1.0.0","1.1.0"]}'),
        stderr: new Uint8Array(),
      };
    this.started.push(`${req.env.CNI_COMMAND} ${id}`);
    await this.#held.get(id)?.promise;
    const out =
      req.env.CNI_COMMAND === "ADD" ? JSON.stringify({ cniVersion: "1.0.0", interfaces: [{ name: id }] }) : "";
    return { stdout: new TextEncoder().encode(out), stderr: new Uint8Array() };
  }
}

let sb: Sandbox;
let socketPath: string;
let daemon: CniDaemon | undefined;
let exec: HeldExec;
let logs: string[];

async function start(limits: Partial<DaemonLimits> = {}): Promise<CniDaemon> {
  const confDir = join(sb.dir, "net.d");
  mkdirSync(confDir, { recursive: true });
  writeFileSync(
    join(confDir, "10-pods.conflist"),
    JSON.stringify({ cniVersion: "1.0.0", name: "pods", plugins: [{ type: "bridge" }] }),
  );
  exec = new HeldExec(new (await import("@tscni/invoke")).BunExec());
  const manager = new PodNetworkManager({
    confDir,
    binDirs: [sb.binDir],
    vendorPrefix: sb.dir,
    cacheDir: sb.cacheDir,
    exec,
  });
  daemon = await startDaemon({ socketPath, manager, syncIntervalMs: 0, limits, log: (l) => void logs.push(l) });
  return daemon;
}

beforeEach(() => {
  sb = makeSandbox();
  sb.install("bridge");
  socketPath = join(sb.dir, "run", "d.sock");
  logs = [];
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  sb.cleanup();
});

interface Answer {
  status: number;
  body: string;
}

/** Sends raw bytes on a new connection; resolves with the answer when the daemon closes it. */
function raw(parts: (string | Uint8Array)[], opts: { stall?: boolean } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    void Bun.connect({
      unix: socketPath,
      socket: {
        open(s) {
          for (const p of parts) s.write(p);
          if (opts.stall !== true) s.flush();
        },
        data(_s, chunk) {
          chunks.push(new Uint8Array(chunk));
        },
        // The daemon closes after its answer: the stream ends (then the socket closes).
        end(s) {
          s.end();
        },
        close() {
          const text = Buffer.concat(chunks).toString();
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
          resolve({ status, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
        },
        error(_s, err) {
          reject(err);
        },
      },
    }).catch(reject);
  });
}

async function call(command: string, id: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch("http://localhost/cni", {
    method: "POST",
    unix: socketPath,
    body: body(command, id),
    headers,
  });
  return { status: res.status, body: await res.text() };
}

/** The value of one `/metrics` line, by its name and labels. */
async function metricLine(series: string): Promise<number> {
  const text = await (await fetch("http://localhost/metrics", { unix: socketPath })).text();
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return Number(line?.slice(series.length + 1) ?? NaN);
}

const head = (length: number, extra = ""): string =>
  `POST /cni HTTP/1.1\r\nhost: localhost\r\ncontent-length: ${length}\r\n${extra}\r\n`;

describe("the daemon's bounds", () => {
  test("a body over the cap is refused with HTTP 413 and a CNI error before it is read", async () => {
    await start({ maxBodyBytes: 4096 });
    const answer = await raw([head(100 * 1024 * 1024), new Uint8Array(64 * 1024)]);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 5, msg: "request body of 104857600 bytes is over the limit of 4096 bytes" },
    });
    const real = await raw([head(8192), new Uint8Array(8192)]);
    expect(real.status).toBe(413);
    expect((await call("ADD", "c1")).status).toBe(200);
  });

  test("headers that stop coming get HTTP 408 after the header timeout", async () => {
    await start({ headerTimeoutMs: 150 });
    const t0 = performance.now();
    const answer = await raw(["POST /cni HTTP/1.1\r\nhost: localhost\r\n"], { stall: true });
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body).error).toEqual({
      code: 5,
      msg: "timed out reading the request headers after 150 ms",
    });
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  test("a body that stops coming gets HTTP 408 after the body timeout", async () => {
    await start({ bodyTimeoutMs: 150 });
    const answer = await raw([head(1000), '{"env":'], { stall: true });
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body).error.msg).toBe("timed out reading the request body after 150 ms");
  });

  test("headers over the size limit get HTTP 431, a chunked body 411, a bad request line 400 with code 6", async () => {
    await start({ maxHeaderBytes: 1024 });
    expect((await raw([`POST /cni HTTP/1.1\r\nx: ${"a".repeat(4000)}\r\n\r\n`])).status).toBe(431);
    expect((await raw(["POST /cni HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n"])).status).toBe(411);
    const bad = await raw(["GARBAGE\r\n\r\n"]);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.code).toBe(6);
  });

  test("connections over the limit get HTTP 503 with code 11 while stalled ones hold their places", async () => {
    await start({ maxConnections: 3, maxPendingHeaders: 3, headerTimeoutMs: 400 });
    const stalled = [0, 1, 2].map(() => raw(["POST /cni HTTP/1.1\r\n"], { stall: true }));
    await Bun.sleep(50);
    const over = await raw([head(2), "{}"]);
    expect(over.status).toBe(503);
    expect(JSON.parse(over.body).error.code).toBe(11);
    expect((await Promise.all(stalled)).map((a) => a.status)).toEqual([408, 408, 408]);
    expect((await call("ADD", "c1")).status).toBe(200);
  });

  test("stalled connections over their own budget make room: the oldest gets HTTP 408 at once and a whole call still runs", async () => {
    await start({ maxPendingHeaders: 3, headerTimeoutMs: 60_000 });
    const t0 = performance.now();
    const stalled: Promise<Answer>[] = [];
    for (let i = 0; i < 3; i++) {
      stalled.push(raw([`POST /cni HTTP/1.1\r\nx-n: ${i}\r\n`], { stall: true }));
      await Bun.sleep(20); // in order: the first two are the oldest when the fourth and fifth come
    }
    await Bun.sleep(1_100); // a connection is evicted only once it has had a second
    for (let i = 3; i < 5; i++) stalled.push(raw([`POST /cni HTTP/1.1\r\nx-n: ${i}\r\n`], { stall: true }));
    const first = await Promise.race([Promise.all(stalled.slice(0, 2)), Bun.sleep(5_000).then(() => "none" as const)]);
    expect(first).not.toBe("none");
    const evicted = first as Answer[];
    expect(evicted.map((a) => a.status)).toEqual([408, 408]);
    expect(JSON.parse(evicted[0]!.body).error).toEqual({
      code: 5,
      msg: "timed out reading the request headers: 3 connections were still sending theirs",
    });
    // The valid call is a connection too: it evicts the third stalled one and is served.
    expect((await call("ADD", "c1")).status).toBe(200);
    expect((await stalled[2]!).status).toBe(408);
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(await metricLine('tscni_daemon_refused_total{reason="pending-headers-full"}')).toBe(3);
    await daemon?.stop(); // closes the two still stalled
  });

  test("in a burst of fresh connections over that budget none is evicted and a whole call is still served", async () => {
    await start({ maxPendingHeaders: 2, headerTimeoutMs: 60_000 });
    const stalled = [0, 1].map(() => raw(["POST /cni HTTP/1.1\r\n"], { stall: true }));
    await Bun.sleep(50);
    expect((await call("ADD", "c1")).status).toBe(200);
    expect(daemon!.metrics.render(0)).not.toContain("pending-headers-full");
    await daemon?.stop();
    expect((await Promise.all(stalled)).map((a) => a.status)).toEqual([0, 0]); // closed by the stop, never answered
  });

  test("at the connection cap, a stalled connection open for a second makes room for a whole call", async () => {
    await start({ maxConnections: 2, headerTimeoutMs: 60_000 });
    const stalled = [0, 1].map(() => raw(["POST /cni HTTP/1.1\r\n"], { stall: true }));
    await Bun.sleep(1_100);
    expect((await call("ADD", "c1")).status).toBe(200);
    expect((await stalled[0]!).status).toBe(408);
    await daemon?.stop();
  });

  test("logs refusals at most once per reason per second, and the next line counts those left out", async () => {
    await start();
    // Half not HTTP at all, half HTTP whose body is not a wire request: one reason, one line.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => raw([i % 2 === 0 ? "NOT HTTP\r\n\r\n" : `${head(5)}nope!`])),
    );
    const lines = logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reason === "malformed");
    expect(lines).toHaveLength(1);
    await Bun.sleep(1_100);
    await raw(["NOT HTTP\r\n\r\n"]);
    const after = logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reason === "malformed");
    expect(after).toHaveLength(2);
    expect(after[1]!.suppressed).toBe(19);
    expect(await metricLine('tscni_daemon_refused_total{reason="malformed"}')).toBe(21);
  });

  test("stays up through a burst of malformed requests and answers a valid call after it", async () => {
    await start();
    const answers: Answer[] = [];
    // Fifty at a time: more at once would meet the connection limit (503), tested above.
    for (let round = 0; round < 4; round++) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 50 }, (_, i) => raw([i % 2 === 0 ? "NOT HTTP\r\n\r\n" : `${head(5)}nope!`])),
        )),
      );
    }
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([400]));
    expect((await call("ADD", "c1")).status).toBe(200);
  });
});

describe("the daemon's controls", () => {
  test("calls over the concurrency limit wait, and over the queue get HTTP 503 with code 11", async () => {
    await start({ maxConcurrent: 1, maxQueued: 1 });
    exec.hold("a");
    const first = call("ADD", "a");
    await Bun.sleep(50);
    const second = call("ADD", "b");
    await Bun.sleep(50);
    const third = await call("ADD", "c");
    expect(third.status).toBe(503);
    expect(JSON.parse(third.body).error.code).toBe(11);
    expect(exec.started).toEqual(["ADD a"]);
    exec.release("a");
    expect([(await first).status, (await second).status]).toEqual([200, 200]);
  });

  test("calls for the same container run one at a time, other containers alongside (LC-2)", async () => {
    await start();
    exec.hold("a");
    const add = call("ADD", "a");
    await Bun.sleep(50);
    const del = call("DEL", "a");
    expect((await call("ADD", "b")).status).toBe(200);
    expect(exec.started).toEqual(["ADD a", "ADD b"]);
    exec.release("a");
    expect([(await add).status, (await del).status]).toEqual([200, 200]);
    expect(exec.started).toEqual(["ADD a", "ADD b", "DEL a"]);
  });

  test("stop drains: a call in flight finishes, a new one gets HTTP 503 with code 11", async () => {
    const d = await start();
    exec.hold("a");
    const inflight = call("ADD", "a");
    await Bun.sleep(50);
    const stopping = d.stop();
    const refused = await call("ADD", "b");
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body).error).toEqual({
      code: 11,
      msg: "the CNI daemon is shutting down; try again later",
    });
    exec.release("a");
    expect((await inflight).status).toBe(200);
    await stopping;
    daemon = undefined;
  });

  test("answers /healthz, /readyz and /metrics with per-verb latency, errors by code and refusals", async () => {
    await start({ maxBodyBytes: 10 });
    const get = async (path: string) => {
      const res = await fetch(`http://localhost${path}`, { unix: socketPath });
      return { status: res.status, text: await res.text() };
    };
    expect(await get("/healthz")).toEqual({ status: 200, text: "ok\n" });
    expect(await get("/readyz")).toEqual({ status: 200, text: "ready: pods\n" });
    await raw([head(100)]);
    const metrics = (await get("/metrics")).text;
    expect(metrics).toContain('tscni_daemon_refused_total{reason="body-too-large"} 1');
    expect(metrics).toContain('tscni_daemon_errors_total{code="5"} 1');
    expect(metrics).toMatch(/^process_resident_memory_bytes \d+$/m);
  });

  test("counts each call in its verb's histogram and logs it as JSON with its request id and traceparent", async () => {
    await start();
    const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    expect((await call("ADD", "c1", { "x-request-id": "req-1", traceparent })).status).toBe(200);
    const metrics = await (await fetch("http://localhost/metrics", { unix: socketPath })).text();
    expect(metrics).toContain('tscni_daemon_call_duration_seconds_count{verb="ADD"} 1');
    expect(metrics).toContain('tscni_daemon_call_duration_seconds_bucket{verb="ADD",le="+Inf"} 1');
    const line = logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.requestId === "req-1");
    expect(line).toMatchObject({
      level: "info",
      msg: "ADD c1 eth0 pod ns/web: ok",
      traceparent,
      verb: "ADD",
      containerID: "c1",
    });
  });
});
