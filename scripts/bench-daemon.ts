/**
 * `npm run bench:daemon`: the fast path against the reference, in one interleaved run on
 * the real kernel (issue 11 item 4, issue 16 item 3). Contenders, each on its own
 * interface name in the same container namespaces:
 *
 * - `ref`: the reference Go bridge from /usr/lib/cni, exec'd (cniVersion 1.0.0);
 * - `exec`: our bridge, exec'd (dist/bin/bridge);
 * - `daemon`: `cni-shim` exec'd, forwarding to `cni daemon`, which runs bridge and
 *   host-local in process.
 *
 * Sections: sequential ADD, CHECK and DEL (rotating the contenders' order per container);
 * 10 and 50 parallel ADDs (wall time); the daemon's RSS before, during and after 50
 * parallel ADDs; `cni add` of a chain of ours (in process) against the reference libcni
 * runtime (refcni, cnitool-like) with the reference's chain; and the abuse of issue 16
 * (5,000 malformed requests, 20 bodies of 100 MB four at a time, 200 stalled half
 * requests) with the daemon's peak RSS and the latency of valid calls during it.
 *
 * BENCH_CONTAINERS=N (default 50, at least 50 for the parallel section), BENCH_SEQ (the
 * sequential containers, default 20), BENCH_ROUNDS (default 2), BENCH_ABUSE=0 skips the abuse,
 * BENCH_ONLY=sequential|parallel|chain|breakdown|abuse runs one section, BENCH_DAEMON_LOG=FILE keeps the daemon's log.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
const BIN = join(ROOT, "dist/bin");
const REF = "/usr/lib/cni";
const N = Number(process.env.BENCH_CONTAINERS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SEQ = Math.min(N, Number(process.env.BENCH_SEQ ?? 20));
type Who = "ref" | "exec" | "daemon";
const WHO: readonly Who[] = ["ref", "exec", "daemon"];

interface Ctx {
  work: string;
  netns: string[];
  socket: string;
  daemonPid: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2;
};
const fmt = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : "-");
const IF: Record<Who, string> = { ref: "eth0", exec: "eth1", daemon: "eth2" };

function config(who: Who, work: string): Record<string, unknown> {
  const n = { ref: 0, exec: 1, daemon: 2 }[who];
  return {
    cniVersion: who === "ref" ? "1.0.0" : "1.1.0",
    name: `bd-${who}`,
    type: "bridge",
    bridge: `tscnibd${n}`,
    isGateway: true,
    ipam: { type: "host-local", ranges: [[{ subnet: `198.18.${70 + n}.0/24` }]], dataDir: join(work, `ipam-${who}`) },
  };
}

/** One plugin call as a runtime makes it: spawn, stdin, wait; returns ms and stdout. */
async function call(
  ctx: Ctx,
  who: Who,
  command: string,
  i: number,
  prev?: string,
): Promise<{ ms: number; out: string; cpuMs: number }> {
  const cfg =
    who === "daemon"
      ? { cniVersion: "1.1.0", name: "shim", type: "cni-shim", socketPath: ctx.socket }
      : { ...config(who, ctx.work), ...(prev !== undefined ? { prevResult: JSON.parse(prev) as unknown } : {}) };
  const exe = who === "ref" ? join(REF, "bridge") : who === "exec" ? join(BIN, "bridge") : join(BIN, "cni-shim");
  const env = {
    PATH: process.env.PATH ?? "",
    CNI_COMMAND: command,
    CNI_CONTAINERID: `bd-${i}`,
    CNI_NETNS: ctx.netns[i]!,
    CNI_IFNAME: IF[who],
    // The shim needs the pod (as kubelet sends it); IgnoreUnknown lets the Go plugins accept it.
    CNI_ARGS: `IgnoreUnknown=1;K8S_POD_NAMESPACE=bench;K8S_POD_NAME=p${i}`,
    CNI_PATH: who === "ref" ? REF : BIN,
  };
  const t0 = performance.now();
  const proc = Bun.spawn([exe], {
    env,
    stdin: new TextEncoder().encode(JSON.stringify(cfg)),
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = await new Response(proc.stdout).text();
  const code = await proc.exited;
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`${who} ${command} ${i} failed: ${out}${await new Response(proc.stderr).text()}`);
  const u = proc.resourceUsage();
  return { ms, out, cpuMs: u === undefined ? NaN : Number(u.cpuTime.user + u.cpuTime.system) / 1000 };
}

/** A process's user + system CPU so far, in ms (/proc/PID/stat, clock ticks of 10 ms). */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(m?.[1] ?? NaN) / 1024;
}

async function sequential(ctx: Ctx, rows: string[]): Promise<Record<string, number>> {
  const t: Record<string, number[]> = {};
  const push = (k: string, v: number): number => (t[k] ??= []).push(v);
  for (let round = 0; round < ROUNDS; round++) {
    const prev: Record<string, string> = {};
    for (const command of ["ADD", "CHECK", "DEL"]) {
      for (let i = 0; i < SEQ; i++) {
        // Rotate who goes first, so no contender always meets a warm (or busy) machine.
        const order = WHO.map((_, k) => WHO[(k + i + round) % WHO.length]!);
        for (const who of order) {
          const r = await call(ctx, who, command, i, command === "ADD" ? undefined : prev[`${who}${i}`]);
          if (command === "ADD") prev[`${who}${i}`] = r.out;
          push(`${who} ${command}`, r.ms);
        }
      }
    }
  }
  const out: Record<string, number> = {};
  rows.push(
    "| bridge, sequential (median ms) | reference | ours exec'd | ours via daemon | exec / ref | daemon / ref |",
    "|---|---|---|---|---|---|",
  );
  for (const command of ["ADD", "CHECK", "DEL"]) {
    const [r, e, d] = WHO.map((w) => median(t[`${w} ${command}`] ?? []));
    out[`ref.${command}`] = r!;
    out[`exec.${command}`] = e!;
    out[`daemon.${command}`] = d!;
    rows.push(
      `| ${command} (${SEQ} × ${ROUNDS}) | ${fmt(r!)} | ${fmt(e!)} | ${fmt(d!)} | ${(e! / r!).toFixed(2)}× | ${(d! / r!).toFixed(2)}× |`,
    );
  }
  return out;
}

/** One call posted straight to the daemon, no shim process: what the daemon alone takes. */
async function direct(ctx: Ctx, command: string, i: number): Promise<void> {
  const env = {
    CNI_COMMAND: command,
    CNI_CONTAINERID: `bd-${i}`,
    CNI_NETNS: ctx.netns[i]!,
    CNI_IFNAME: IF.daemon,
    CNI_ARGS: `IgnoreUnknown=1;K8S_POD_NAMESPACE=bench;K8S_POD_NAME=p${i}`,
    CNI_PATH: BIN,
  };
  const config = Buffer.from(JSON.stringify({ cniVersion: "1.1.0", name: "shim", type: "cni-shim" })).toString(
    "base64",
  );
  const res = await fetch("http://localhost/cni", {
    method: "POST",
    unix: ctx.socket,
    body: JSON.stringify({ env, config }),
  });
  if (res.status !== 200) throw new Error(`direct ${command} ${i}: HTTP ${res.status} ${await res.text()}`);
}

async function parallel(ctx: Ctx, rows: string[]): Promise<Record<string, number>> {
  const wall: Record<string, number[]> = {};
  const rss = { before: [] as number[], during: [] as number[], after: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const k of [10, 50]) {
      for (const who of round % 2 === 0 ? WHO : [...WHO].reverse()) {
        const idx = Array.from({ length: Math.min(k, ctx.netns.length) }, (_, i) => i);
        const sampling = who === "daemon" && k === 50;
        if (sampling) rss.before.push(rssMiB(ctx.daemonPid));
        let peak = 0;
        const sampler = sampling ? setInterval(() => (peak = Math.max(peak, rssMiB(ctx.daemonPid))), 5) : undefined;
        const cpu0 = cpuOf(ctx.daemonPid);
        const t0 = performance.now();
        const calls = await Promise.all(idx.map((i) => call(ctx, who, "ADD", i)));
        (wall[`${who} ${k}`] ??= []).push(performance.now() - t0);
        // CPU of the burst: the processes spawned (Go plugins, our plugins, or shims) and the daemon's.
        (wall[`${who} ${k} cpu`] ??= []).push(calls.reduce((sum, c) => sum + c.cpuMs, 0));
        if (who === "daemon") (wall[`${who} ${k} daemon cpu`] ??= []).push(cpuOf(ctx.daemonPid) - cpu0);
        clearInterval(sampler);
        await Promise.all(idx.map((i) => call(ctx, who, "DEL", i)));
        if (who === "daemon") {
          // The same burst posted straight to the daemon: its own part of the wall time.
          const t1 = performance.now();
          await Promise.all(idx.map((i) => direct(ctx, "ADD", i)));
          (wall[`direct ${k}`] ??= []).push(performance.now() - t1);
          await Promise.all(idx.map((i) => direct(ctx, "DEL", i)));
        }
        if (sampling) {
          rss.during.push(peak);
          await Bun.sleep(1000);
          rss.after.push(rssMiB(ctx.daemonPid));
        }
      }
    }
  }
  const out: Record<string, number> = {};
  rows.push(
    "",
    "| bridge, parallel ADDs (median wall ms) | reference | ours exec'd | ours via daemon | exec / ref | daemon / ref |",
    "|---|---|---|---|---|---|",
  );
  for (const k of [10, 50]) {
    const [r, e, d] = WHO.map((w) => median(wall[`${w} ${k}`] ?? []));
    out[`ref.par${k}`] = r!;
    out[`exec.par${k}`] = e!;
    out[`daemon.par${k}`] = d!;
    rows.push(
      `| ${k} at once (× ${ROUNDS}) | ${fmt(r!)} | ${fmt(e!)} | ${fmt(d!)} | ${(e! / r!).toFixed(2)}× | ${(d! / r!).toFixed(2)}× |`,
    );
    const [rc, ec, dc] = WHO.map((w) => median(wall[`${w} ${k} cpu`] ?? []));
    const daemonCpu = median(wall[`daemon ${k} daemon cpu`] ?? []);
    rows.push(
      `| ${k} at once, posted straight to the daemon (no shim) | | | ${fmt(median(wall[`direct ${k}`] ?? []))} | | ${(median(wall[`direct ${k}`] ?? []) / r!).toFixed(2)}× |`,
    );
    rows.push(
      `| ${k} at once, CPU of the processes spawned (ms) | ${fmt(rc!)} | ${fmt(ec!)} | ${fmt(dc!)} shims + ${fmt(daemonCpu)} daemon | | |`,
    );
    Object.assign(out, {
      [`ref.par${k}.cpu`]: rc,
      [`exec.par${k}.cpu`]: ec,
      [`daemon.par${k}.cpu.shims`]: dc,
      [`daemon.par${k}.cpu.daemon`]: daemonCpu,
    });
  }
  const [b, du, a] = [Math.min(...rss.before), Math.max(...rss.during), Math.max(...rss.after)];
  rows.push(
    "",
    `daemon RSS (MiB): idle before ${fmt(b)}, peak during 50 parallel ADDs ${fmt(du)}, 1 s after their DELs ${fmt(a)} (${(((a - b) / b) * 100).toFixed(0)}% over idle)`,
  );
  Object.assign(out, { "rss.before": b, "rss.during": du, "rss.after": a });
  return out;
}

/** The daemon's own time of ADD calls so far (`/metrics`): total seconds. */
async function addSeconds(ctx: Ctx): Promise<number> {
  const text = await (await fetch("http://localhost/metrics", { unix: ctx.socket })).text();
  return Number(/^tscni_daemon_call_duration_seconds_sum\{verb="ADD"\} (\S+)$/m.exec(text)?.[1] ?? 0);
}

/** A plugin's VERSION (no stdin config needed): the floor of a start. */
async function version(exe: string, extra: Record<string, string> = {}): Promise<number> {
  const t0 = performance.now();
  const proc = Bun.spawn([exe], {
    env: { CNI_COMMAND: "VERSION", ...extra },
    stdin: new TextEncoder().encode('{"cniVersion":"1.0.0"}'),
    stdout: "pipe",
    stderr: "pipe",
  });
  await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error(`${exe} VERSION failed`);
  return performance.now() - t0;
}

/**
 * Where a daemon ADD's time goes, interleaved with the reference: the whole shim call, the
 * part inside the daemon (its own histogram), so the rest is the shim's start and the HTTP
 * exchange; beside them the starts alone (VERSION of the Go loopback, of our loopback, of
 * the shim through the daemon).
 */
async function breakdown(ctx: Ctx, rows: string[]): Promise<Record<string, number>> {
  const t: Record<string, number[]> = {};
  const push = (k: string, v: number): number => (t[k] ??= []).push(v);
  const shimEnv = { CNI_COMMAND: "VERSION", TSCNI_SOCKET: ctx.socket };
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < SEQ; i++) {
      push("ref ADD", (await call(ctx, "ref", "ADD", i)).ms);
      const before = await addSeconds(ctx);
      push("daemon ADD", (await call(ctx, "daemon", "ADD", i)).ms);
      push("daemon inside", ((await addSeconds(ctx)) - before) * 1000);
      push("go VERSION", await version(join(REF, "loopback")));
      push("bun VERSION", await version(join(BIN, "loopback")));
      push("shim VERSION", await version(join(BIN, "cni-shim"), shimEnv));
    }
    for (let i = 0; i < SEQ; i++) {
      await call(ctx, "ref", "DEL", i);
      await call(ctx, "daemon", "DEL", i);
    }
  }
  const m = (k: string): number => median(t[k] ?? []);
  rows.push(
    "",
    "| where a daemon ADD goes (median ms) | ms |",
    "|---|---|",
    `| reference bridge ADD, exec'd | ${fmt(m("ref ADD"))} |`,
    `| shim + daemon ADD, whole call | ${fmt(m("daemon ADD"))} |`,
    `| of which inside the daemon (its histogram) | ${fmt(m("daemon inside"))} |`,
    `| the rest: shim start, request, answer, exit | ${fmt(m("daemon ADD") - m("daemon inside"))} |`,
    `| Go loopback VERSION (a Go start) | ${fmt(m("go VERSION"))} |`,
    `| our loopback VERSION (a Bun start) | ${fmt(m("bun VERSION"))} |`,
    `| cni-shim VERSION through the daemon | ${fmt(m("shim VERSION"))} |`,
  );
  return {
    "bd.ref.ADD": m("ref ADD"),
    "bd.daemon.ADD": m("daemon ADD"),
    "bd.daemon.inside": m("daemon inside"),
    "bd.go.VERSION": m("go VERSION"),
    "bd.bun.VERSION": m("bun VERSION"),
    "bd.shim.VERSION": m("shim VERSION"),
  };
}

/** `cni add`/`del` of a chain of ours (in process) vs refcni with the reference's chain, vs ours with a process per plugin. */
async function chain(ctx: Ctx, rows: string[]): Promise<Record<string, number>> {
  const { buildGo, missingReference } = await import("./compat/_reference.ts");
  const why = missingReference({ plugins: true, go: true, ours: true });
  if (why !== undefined) {
    rows.push("", `cni add vs refcni: skipped (${why})`);
    return {};
  }
  const refcni = buildGo("refcni");
  const net = join(ctx.work, "chain-net");
  mkdirSync(net, { recursive: true });
  const kinds = { refcni: "ref", ours: "exec", "ours, TSCNI_IN_PROCESS=0": "exec" } as const;
  for (const [who, n] of [
    ["ref", 3],
    ["exec", 4],
  ] as const) {
    const { cniVersion } = config(who, ctx.work);
    const plugin = {
      type: "bridge",
      bridge: `tscnibd${n}`,
      isGateway: true,
      ipam: {
        type: "host-local",
        ranges: [[{ subnet: `198.18.${70 + n}.0/24` }]],
        dataDir: join(ctx.work, `ipam-chain-${who}`),
      },
    };
    writeFileSync(
      join(net, `${n}-${who}.conflist`),
      JSON.stringify({ cniVersion, name: `chain-${who}`, plugins: [plugin] }),
    );
  }
  const times: Record<string, number[]> = {};
  const run = async (label: keyof typeof kinds, verb: string, i: number): Promise<void> => {
    const ref = label === "refcni";
    const argv = ref
      ? [refcni, verb, "chain-ref", ctx.netns[i]!]
      : [join(BIN, "cni"), verb, "chain-exec", ctx.netns[i]!];
    const env = {
      PATH: process.env.PATH ?? "",
      NETCONFPATH: net,
      CNI_PATH: ref ? REF : BIN,
      CNI_IFNAME: ref ? "eth3" : label === "ours" ? "eth4" : "eth5",
      CNI_CACHE_DIR: join(ctx.work, `cache-${label}`),
      ...(label === "ours" ? {} : { TSCNI_IN_PROCESS: "0" }),
    };
    const t0 = performance.now();
    const proc = Bun.spawn(argv, { env, stdout: "pipe", stderr: "pipe" });
    const out = await new Response(proc.stdout).text();
    if ((await proc.exited) !== 0)
      throw new Error(`${label} ${verb} failed: ${out}${await new Response(proc.stderr).text()}`);
    (times[`${label} ${verb}`] ??= []).push(performance.now() - t0);
  };
  const labels = Object.keys(kinds) as (keyof typeof kinds)[];
  for (let round = 0; round < ROUNDS; round++) {
    for (const verb of ["add", "del"]) {
      for (let i = 0; i < SEQ; i++)
        for (const label of labels.map((_, k) => labels[(k + i) % labels.length]!)) await run(label, verb, i);
    }
  }
  rows.push(
    "",
    "| `cni add`/`del` of a bridge chain (median ms) | refcni + reference bridge | `cni` (ours in process) | `cni`, a process per plugin | ours / ref |",
    "|---|---|---|---|---|",
  );
  const out: Record<string, number> = {};
  for (const verb of ["add", "del"]) {
    const [r, o, p] = labels.map((l) => median(times[`${l} ${verb}`] ?? []));
    rows.push(`| ${verb} (${SEQ} × ${ROUNDS}) | ${fmt(r!)} | ${fmt(o!)} | ${fmt(p!)} | ${(o! / r!).toFixed(2)}× |`);
    Object.assign(out, { [`chain.ref.${verb}`]: r, [`chain.ours.${verb}`]: o, [`chain.perexec.${verb}`]: p });
  }
  return out;
}

async function inner(): Promise<void> {
  const work = process.env.BENCH_DIR ?? "";
  const netns = (process.env.BENCH_NETNS ?? "").split(",");
  const socket = join(work, "d.sock");
  const confDir = join(work, "net.d");
  mkdirSync(confDir, { recursive: true });
  const c = config("daemon", work);
  const { cniVersion, name, ...plugin } = c;
  writeFileSync(join(confDir, "10-bd.conflist"), JSON.stringify({ cniVersion, name, plugins: [plugin] }));
  const daemon = Bun.spawn(
    [
      ...(process.env.BENCH_DAEMON_NICE !== undefined ? ["nice", "-n", process.env.BENCH_DAEMON_NICE] : []),
      join(BIN, "cni"),
      "daemon",
      "--socket",
      socket,
      "--conf-dir",
      confDir,
      "--bin-dir",
      BIN,
      "--cache-dir",
      join(work, "cache-daemon"),
    ],
    {
      stdout: "ignore",
      stderr: process.env.BENCH_DAEMON_LOG !== undefined ? Bun.file(process.env.BENCH_DAEMON_LOG) : "ignore",
    },
  );
  try {
    while (!existsSync(socket)) await Bun.sleep(10);
    const ctx: Ctx = { work, netns, socket, daemonPid: daemon.pid };
    // Warm-up: one ADD and DEL each, so first-call costs (page cache, JIT) are not in the figures.
    for (const who of WHO) {
      await call(ctx, who, "ADD", 0);
      await call(ctx, who, "DEL", 0);
    }
    const rows: string[] = [];
    const report: Record<string, number> = {};
    const only = process.env.BENCH_ONLY;
    if (only === undefined || only === "sequential") Object.assign(report, await sequential(ctx, rows));
    if (only === undefined || only === "parallel") Object.assign(report, await parallel(ctx, rows));
    if (only === undefined || only === "chain") Object.assign(report, await chain(ctx, rows));
    if (only === undefined || only === "breakdown") Object.assign(report, await breakdown(ctx, rows));
    if (process.env.BENCH_ABUSE !== "0" && (only === undefined || only === "abuse")) {
      const { abuse } = await import("./lib/daemon-abuse.ts");
      const valid = (i: number): Promise<{ ms: number }> =>
        call(ctx, "daemon", i % 2 === 0 ? "ADD" : "DEL", 1 + ((i >> 1) % 5));
      // The control first: the same abuse aimed at a second daemon, so the valid calls pay the
      // shared cores but not the abuse; what is left between the two runs is the abuse's own cost.
      const decoySocket = join(work, "decoy.sock");
      const decoy = Bun.spawn(
        [
          join(BIN, "cni"),
          "daemon",
          "--socket",
          decoySocket,
          "--conf-dir",
          confDir,
          "--bin-dir",
          BIN,
          "--cache-dir",
          join(work, "cache-decoy"),
        ],
        { stdout: "ignore", stderr: "ignore" },
      );
      try {
        while (!existsSync(decoySocket)) await Bun.sleep(10);
        const control = await abuse({ socket, pid: daemon.pid, decoy: decoySocket, valid }, rows);
        for (const [k, val] of Object.entries(control)) report[`control.${k}`] = val;
      } finally {
        decoy.kill("SIGTERM");
        await decoy.exited;
      }
      Object.assign(report, await abuse({ socket, pid: daemon.pid, valid }, rows));
    }
    const load = (await import("node:os"))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
    console.log(`bench-daemon: reference ${REF} (cniVersion 1.0.0) vs tscni ${BIN}; load average ${load}\n`);
    console.log(rows.join("\n"));
    console.log(`\nJSON ${JSON.stringify(report)}`);
  } finally {
    daemon.kill("SIGTERM");
    await daemon.exited;
  }
}

async function outer(): Promise<void> {
  if (process.getuid?.() !== 0) {
    console.error("bench-daemon: needs root (it creates throwaway network namespaces)");
    process.exit(1);
  }
  if (!existsSync(join(REF, "bridge")) || !existsSync(join(BIN, "cni-shim"))) {
    console.error(`bench-daemon: needs ${REF}/bridge and a build (npm run build)`);
    process.exit(1);
  }
  const { runInsideThrowawayHost } = await import("./lib/netns.ts");
  process.exitCode = await runInsideThrowawayHost("bd", Math.max(N, 50), [
    process.execPath,
    "run",
    import.meta.path,
    "--inner",
  ]);
}

if (process.argv.includes("--inner")) await inner();
else await outer();
