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
  valid: (i: number) => Promise<{ ms: number }>;
}

const HUNDRED_MB = 100 * 1000 * 1000;

function rssMiB(pid: number): number {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(text)?.[1] ?? NaN) / 1024;
}

/** Sends `parts` on a new connection; resolves with the status line's code when the daemon closes it (0: none). */
function raw(socket: string, parts: string[], stall = false): Promise<number> {
  return new Promise((resolve) => {
    let text = "";
    const finish = (): void => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0));
    Bun.connect({
      unix: socket,
      socket: {
        open(s) {
          for (const p of parts) s.write(p);
          if (!stall) s.flush();
        },
        data(_s, chunk) {
          text += chunk.toString();
        },
        // The daemon closes after its answer: the client sees the end of the stream.
        end(s) {
          s.end();
          finish();
        },
        close: finish,
        error: finish,
      },
    }).catch(() => resolve(0));
  });
}

/** Runs `n` tasks, `width` at a time. */
async function pool<T>(n: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < n) out.push(await task(next++));
  }));
  return out;
}

const MALFORMED = ["GARBAGE\r\n\r\n", "POST /cni HTTP/1.1\r\ncontent-length: 5\r\n\r\nnope!", "POST /cni HTTP/1.1\r\ncontent-length: x\r\n\r\n", "POST /cni HTTP/1.1\r\ncontent-length: 2\r\n\r\n{}"];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))] ?? NaN;
const tally = (codes: number[]): string => {
  const m = new Map<number, number>();
  for (const c of codes) m.set(c, (m.get(c) ?? 0) + 1);
  return [...m].sort(([a], [b]) => a - b).map(([c, n]) => `${c === 0 ? "closed" : c}: ${n}`).join(", ");
};

/** The three attacks at once; resolves with the status codes each got (0: closed without one). */
export async function attack(socket: string): Promise<{ malformed: number[]; big: number[]; stalled: number[] }> {
  const body = new Uint8Array(HUNDRED_MB);
  const [malformed, big, stalled] = await Promise.all([
    pool(5000, 50, (i) => raw(socket, [MALFORMED[i % MALFORMED.length]!])),
    pool(20, 4, async () => {
      try {
        return (await fetch("http://localhost/cni", { method: "POST", unix: socket, body })).status;
      } catch {
        return 0; // the daemon closed the connection after its 413, mid-upload
      }
    }),
    Promise.all(Array.from({ length: 200 }, () => raw(socket, ["POST /cni HTTP/1.1\r\nhost: localhost\r\n"], true))),
  ]);
  return { malformed, big, stalled };
}

/**
 * Runs the abuse from a separate process (so the attackers' own event loop does not delay
 * the valid calls being timed), pushes its table rows and returns its figures.
 */
export async function abuse(target: AbuseTarget, rows: string[]): Promise<Record<string, number>> {
  const baseline: number[] = [];
  for (let i = 0; i < 20; i++) baseline.push((await target.valid(i)).ms);
  const idle = rssMiB(target.pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(target.pid))), 10);
  const t0 = performance.now();
  const proc = Bun.spawn([process.execPath, "run", import.meta.path, "--attack", target.socket], { stdout: "pipe", stderr: "inherit" });
  let done = false;
  const report = new Response(proc.stdout).text().finally(() => (done = true));
  const during: number[] = [];
  for (let i = 20; !done; i++) during.push((await target.valid(i)).ms);
  const { malformed, big, stalled } = JSON.parse(await report) as Awaited<ReturnType<typeof attack>>;
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const alive = (await target.valid(1000)).ms;
  rows.push(
    "",
    `abuse (${seconds.toFixed(1)} s): 5,000 malformed (${tally(malformed)}); 20 × 100 MB bodies, 4 at a time (${tally(big)}); 200 stalled half requests (${tally(stalled)})`,
    "",
    "| daemon under abuse | before | during |",
    "|---|---|---|",
    `| valid call (shim ADD or DEL), median ms | ${median(baseline).toFixed(1)} | ${median(during).toFixed(1)} (${during.length} calls) |`,
    `| valid call, p95 ms | ${p95(baseline).toFixed(1)} | ${p95(during).toFixed(1)} |`,
    `| daemon RSS, MiB | ${idle.toFixed(1)} | peak ${peak.toFixed(1)} |`,
    "",
    `a valid call after the abuse: ${alive.toFixed(1)} ms`,
  );
  return { "abuse.baseline.median": median(baseline), "abuse.during.median": median(during), "abuse.during.p95": p95(during), "abuse.rss.idle": idle, "abuse.rss.peak": peak };
}

if (process.argv[2] === "--attack" && process.argv[3] !== undefined) console.log(JSON.stringify(await attack(process.argv[3])));
