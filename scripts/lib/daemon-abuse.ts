/**
 * The abuse of issue 16 item 3, against a running `cni daemon`: 5,000 malformed requests
 * (fifty connections at a time), 20 bodies of 100 MB four at a time, and 200 connections
 * that send half a request and stall, all at once, while valid calls go on. Reports the
 * daemon's peak RSS during the abuse and the latency of the valid calls before and during.
 */
import { readFileSync } from "node:fs";

/** The daemon under abuse and how to make one valid call. */
export interface AbuseTarget {
  socket: string;
  pid: number;
  /**
   * Another daemon's socket (same machine, nobody's calls): when given, the abuse is aimed
   * there, so the valid calls meet the same load on the cores but none of the abuse.
   */
  decoy?: string;
  valid: (i: number) => Promise<{ ms: number }>;
}

const HUNDRED_MB = 100 * 1000 * 1000;

function rssMiB(pid: number): number {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(text)?.[1] ?? NaN) / 1024;
}

/**
 * How one abusive connection ended: `"4xx"`/`"5xx"` status code answered; `"closed"` the
 * daemon closed without an answer; `"reset"` the connection failed (ECONNRESET, EPIPE) with
 * no answer read; `"refused"` no connection at all; `"no answer"` still open after the wait.
 */
export type Outcome = string;

/** Waits at most this long for an answer before counting "no answer" (the header timeout is 5 s). */
const ANSWER_WAIT_MS = 30_000;

/** The daemon's user + system CPU so far, in ms (/proc/PID/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The daemon's own time for the calls it answered so far: total seconds and count, over every verb (`/metrics`). */
async function served(socket: string): Promise<{ sum: number; count: number }> {
  const text = await (await fetch("http://localhost/metrics", { unix: socket })).text();
  let sum = 0;
  let count = 0;
  for (const m of text.matchAll(/^tscni_daemon_call_duration_seconds_(sum|count)\{verb="(ADD|DEL)"\} (\S+)$/gm)) {
    if (m[1] === "sum") sum += Number(m[3]);
    else count += Number(m[3]);
  }
  return { sum, count };
}

/** Sends `parts` on a new connection; resolves with how the daemon ended it (see {@link Outcome}). */
function raw(socket: string, parts: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    let text = "";
    let settled = false;
    const settle = (how: Outcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      resolve(status ?? how);
    };
    const timer = setTimeout(() => settle("no answer"), ANSWER_WAIT_MS);
    Bun.connect({
      unix: socket,
      socket: {
        open(s) {
          for (const p of parts) s.write(p);
          s.flush();
        },
        data(_s, chunk) {
          text += chunk.toString();
        },
        // The daemon closes after its answer: the client sees the end of the stream.
        end(s) {
          s.end();
          settle("closed");
        },
        close: () => settle("closed"),
        error: (_s, e) => settle("reset " + String(e)),
        connectError: (_s, e) => settle("refused " + String(e)),
      },
    }).catch((e) => settle("refused? " + String(e)));
  });
}

/** Runs `n` tasks, `width` at a time. */
async function pool<T>(n: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) out.push(await task(next++));
    }),
  );
  return out;
}

const MALFORMED = [
  "GARBAGE\r\n\r\n",
  "POST /cni HTTP/1.1\r\ncontent-length: 5\r\n\r\nnope!",
  "POST /cni HTTP/1.1\r\ncontent-length: x\r\n\r\n",
  "POST /cni HTTP/1.1\r\ncontent-length: 2\r\n\r\n{}",
];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const p95 = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))] ?? NaN;
const tally = (outcomes: Outcome[]): string => {
  const m = new Map<Outcome, number>();
  for (const c of outcomes) m.set(c, (m.get(c) ?? 0) + 1);
  return [...m]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([c, n]) => `${c}: ${n}`)
    .join(", ");
};

/** The three kinds of abuse. */
export type AttackKind = "malformed" | "big" | "stalled";
const KINDS: readonly AttackKind[] = ["malformed", "big", "stalled"];

/**
 * One kind of abuse; resolves with how each connection ended. Each kind runs in its own
 * process: in one process, Bun's client reported "Failed to connect" for sockets whose
 * connect() had succeeded (the daemon accepted them and answered 408 or 400) whenever a
 * 100 MB upload of the same process held its event loop, so the harness counted answers
 * it never read.
 */
export async function attack(socket: string, kind: AttackKind): Promise<Outcome[]> {
  switch (kind) {
    case "malformed":
      return pool(5000, 50, (i) => raw(socket, [MALFORMED[i % MALFORMED.length]!]));
    case "big": {
      const body = new Uint8Array(HUNDRED_MB);
      return pool(20, 4, async () => {
        try {
          return String((await fetch("http://localhost/cni", { method: "POST", unix: socket, body })).status);
        } catch {
          return "reset"; // closed mid-upload and the client never read an answer
        }
      });
    }
    case "stalled":
      return Promise.all(Array.from({ length: 200 }, () => raw(socket, ["POST /cni HTTP/1.1\r\nhost: localhost\r\n"])));
  }
}

/**
 * Runs the abuse from a separate process (so the attackers' own event loop does not delay
 * the valid calls being timed), pushes its table rows and returns its figures.
 */
export async function abuse(target: AbuseTarget, rows: string[]): Promise<Record<string, number>> {
  const baseline: number[] = [];
  const s0 = await served(target.socket);
  for (let i = 0; i < 20; i++) baseline.push((await target.valid(i)).ms);
  const s1 = await served(target.socket);
  const idle = rssMiB(target.pid);
  const cpu0 = cpuMs(target.pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(target.pid))), 10);
  const t0 = performance.now();
  const aimed = target.decoy ?? target.socket;
  const procs = KINDS.map((kind) =>
    Bun.spawn([process.execPath, "run", import.meta.path, "--attack", kind, aimed], {
      stdout: "pipe",
      stderr: "inherit",
    }),
  );
  let done = false;
  const report = Promise.all(
    procs.map(async (p) => JSON.parse(await new Response(p.stdout).text()) as Outcome[]),
  ).finally(() => (done = true));
  const during: number[] = [];
  // Whole ADD/DEL pairs only (an even call is an ADD, the odd one after it its DEL), so no
  // container is left added for the next run.
  for (let i = 20; !done || i % 2 === 1; i++) during.push((await target.valid(i)).ms);
  const [malformed, big, stalled] = (await report) as [Outcome[], Outcome[], Outcome[]];
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const daemonCpu = cpuMs(target.pid) - cpu0;
  const attackersCpu = procs.reduce((sum, p) => {
    const u = p.resourceUsage();
    return sum + (u === undefined ? 0 : Number(u.cpuTime.user + u.cpuTime.system) / 1000);
  }, 0);
  const s2 = await served(target.socket);
  const inDaemon = (a: { sum: number; count: number }, b: { sum: number; count: number }): number =>
    ((b.sum - a.sum) / Math.max(1, b.count - a.count)) * 1000;
  const alive = (await target.valid(1000)).ms;
  await target.valid(1001);
  rows.push(
    "",
    `abuse ${target.decoy !== undefined ? "aimed at another daemon (a control: the same load on the cores, no abuse here)" : "aimed at this daemon"} (${seconds.toFixed(1)} s): 5,000 malformed (${tally(malformed)}); 20 × 100 MB bodies, 4 at a time (${tally(big)}); 200 stalled half requests (${tally(stalled)})`,
    "",
    "| daemon under abuse | before | during |",
    "|---|---|---|",
    `| valid call (shim ADD or DEL), median ms | ${median(baseline).toFixed(1)} | ${median(during).toFixed(1)} (${during.length} calls) |`,
    `| valid call, p95 ms | ${p95(baseline).toFixed(1)} | ${p95(during).toFixed(1)} |`,
    `| the same calls' time inside the daemon (mean ms, from /metrics) | ${inDaemon(s0, s1).toFixed(1)} | ${inDaemon(s1, s2).toFixed(1)} |`,
    `| daemon RSS, MiB | ${idle.toFixed(1)} | peak ${peak.toFixed(1)} |`,
    "",
    `CPU during the abuse: daemon ${(daemonCpu / 1000).toFixed(1)} s, the three attackers ${(attackersCpu / 1000).toFixed(1)} s, over ${seconds.toFixed(1)} s on ${navigator.hardwareConcurrency} cores`,
    "",
    `a valid call after the abuse: ${alive.toFixed(1)} ms`,
  );
  return {
    "abuse.baseline.median": median(baseline),
    "abuse.during.median": median(during),
    "abuse.during.p95": p95(during),
    "abuse.rss.idle": idle,
    "abuse.rss.peak": peak,
    "abuse.daemon.before": inDaemon(s0, s1),
    "abuse.daemon.during": inDaemon(s1, s2),
    "abuse.cpu.daemon": daemonCpu,
    "abuse.cpu.attackers": attackersCpu,
  };
}

const [flag, kind, socketArg] = process.argv.slice(2);
if (flag === "--attack" && KINDS.includes(kind as AttackKind) && socketArg !== undefined)
  console.log(JSON.stringify(await attack(socketArg, kind as AttackKind)));
