/**
 * bridge ADD and DEL with `ipMasq` (iptables, the default backend), ours against the
 * reference Go bridge v1.1.1 (/usr/lib/cni), every path side by side in one interleaved
 * run. Five lanes, each with its own network, bridge and subnet:
 *
 * - `ref exec` / `ours exec`: the plugin spawned per call, as a runtime that execs plugins;
 * - `refcni` / `ours cni`: a cnitool-style runtime on a one-plugin list: the reference's
 *   (scripts/compat/go/refcni, libcni) exec'ing the reference bridge, against our `cni
 *   add`/`cni del`, which runs our bridge in process (the fast path);
 * - `ours daemon`: `cni-shim` exec'd, forwarding to `cni daemon` (our plugins in process),
 *   compared with the exec'd reference (what the shim replaces on a node).
 *
 * In each round every lane ADDs the same containers and DELs them again, with and without
 * `ipMasq`, the lanes' order rotating from round to round so a busy machine weighs on all
 * alike; after a lane's DELs no rule of it is left, so every lane starts on the same rule
 * set. Without `ipMasq` shows the plugin's own cost, so masquerading's share (with minus
 * without) shows apart. Reported: the median of the rounds' medians and the ratios. Run by
 * `npm run bench` (BENCH_MASQ=0 skips it) or alone as root: `bun run scripts/bench-masq.ts`.
 *
 * BENCH_MASQ_ROUNDS (default 10) and BENCH_MASQ_CONTAINERS (default 10) size the run;
 * BENCH_MASQ_LANES (comma list, default all) picks lanes.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";

const OURS = process.env.BENCH_BIN ?? new URL("../dist/bin", import.meta.url).pathname;
const REFERENCE = "/usr/lib/cni";
const ROUNDS = Number(process.env.BENCH_MASQ_ROUNDS ?? 10);
const N = Number(process.env.BENCH_MASQ_CONTAINERS ?? 10);

const LANES = ["ref exec", "ours exec", "refcni", "ours cni", "ours daemon"] as const;
type Lane = (typeof LANES)[number];
const CHOSEN: Lane[] = LANES.filter((l) => (process.env.BENCH_MASQ_LANES ?? LANES.join(",")).split(",").includes(l));

interface Ctx {
  work: string;
  refcni: string;
  /** The daemon sockets, with and without ipMasq. */
  socket: Record<"masq" | "plain", string>;
}

/** The bridge config of a lane (its own bridge and subnet). */
function bridgeConfig(ctx: Ctx, lane: Lane, masq: boolean) {
  const k = LANES.indexOf(lane);
  return {
    cniVersion: "1.0.0",
    name: `bench-masq-${k}-${masq ? "masq" : "plain"}`,
    type: "bridge",
    bridge: `tscnimq${k}`,
    isGateway: true,
    ipMasq: masq,
    ipam: {
      type: "host-local",
      ranges: [[{ subnet: `198.18.${70 + k}.0/24` }]],
      dataDir: join(ctx.work, `ipam-${k}`),
    },
  };
}

/** A one-plugin list of the lane's config in its own NETCONFPATH; returns the directory. */
function listDir(ctx: Ctx, lane: Lane, masq: boolean): string {
  const { name, cniVersion, ...plugin } = bridgeConfig(ctx, lane, masq);
  const dir = join(ctx.work, "net.d", name);
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "10.conflist"), JSON.stringify({ cniVersion, name, plugins: [plugin] }));
  }
  return dir;
}

/** One call of `lane`: spawn, stdin, wait; the wall time in ms. */
async function call(ctx: Ctx, lane: Lane, command: "ADD" | "DEL", i: number, netns: string, masq: boolean) {
  const cid = `mq-${i}`;
  const base = { PATH: process.env.PATH ?? "", CNI_IFNAME: "eth0" };
  let argv: string[];
  let env: Record<string, string>;
  let stdin = "";
  if (lane === "ref exec" || lane === "ours exec" || lane === "ours daemon") {
    const dir = lane === "ref exec" ? REFERENCE : OURS;
    argv = [join(dir, lane === "ours daemon" ? "cni-shim" : "bridge")];
    env = {
      ...base,
      CNI_COMMAND: command,
      CNI_CONTAINERID: cid,
      CNI_NETNS: netns,
      // The shim needs the pod, as kubelet sends it; IgnoreUnknown lets the Go plugin accept it.
      CNI_ARGS: `IgnoreUnknown=1;K8S_POD_NAMESPACE=bench;K8S_POD_NAME=p${i}`,
      CNI_PATH: dir,
    };
    stdin = JSON.stringify(
      lane === "ours daemon"
        ? { cniVersion: "1.1.0", name: "shim", type: "cni-shim", socketPath: ctx.socket[masq ? "masq" : "plain"] }
        : bridgeConfig(ctx, lane, masq),
    );
  } else {
    const ref = lane === "refcni";
    const name = bridgeConfig(ctx, lane, masq).name;
    argv = [ref ? ctx.refcni : join(OURS, "cni"), command === "ADD" ? "add" : "del", name, netns];
    env = {
      ...base,
      NETCONFPATH: listDir(ctx, lane, masq),
      CNI_PATH: ref ? REFERENCE : OURS,
      CNI_CACHE_DIR: join(ctx.work, `cache-${LANES.indexOf(lane)}`),
    };
  }
  const t0 = performance.now();
  const proc = Bun.spawn(argv, { env, stdin: new TextEncoder().encode(stdin), stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`${lane} ${command} failed: ${out}${err}`);
  return ms;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Starts `cni daemon` on the default network `masq` selects; returns its socket and a stop. */
async function startDaemon(ctx: Ctx, masq: boolean): Promise<{ socket: string; stop: () => Promise<void> }> {
  const { name, cniVersion, ...plugin } = bridgeConfig(ctx, "ours daemon", masq);
  const confDir = join(ctx.work, `daemon-${masq ? "masq" : "plain"}`);
  mkdirSync(confDir, { recursive: true });
  writeFileSync(join(confDir, "10.conflist"), JSON.stringify({ cniVersion, name, plugins: [plugin] }));
  const socket = join(confDir, "d.sock");
  const args = ["--socket", socket, "--conf-dir", confDir, "--bin-dir", OURS, "--cache-dir", join(confDir, "cache")];
  const proc = Bun.spawn([join(OURS, "cni"), "daemon", ...args], { stdout: "ignore", stderr: "ignore" });
  while (!existsSync(socket)) await Bun.sleep(10);
  return {
    socket,
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

async function inner(): Promise<void> {
  const containers = (process.env.BENCH_NETNS ?? "").split(",").slice(0, N);
  const work = process.env.BENCH_DIR ?? "";
  let refcni = "";
  if (CHOSEN.includes("refcni")) refcni = (await import("./compat/_reference.ts")).buildGo("refcni");
  const ctx: Ctx = { work, refcni, socket: { masq: "", plain: "" } };
  const daemons = CHOSEN.includes("ours daemon") ? [await startDaemon(ctx, true), await startDaemon(ctx, false)] : [];
  ctx.socket = { masq: daemons[0]?.socket ?? "", plain: daemons[1]?.socket ?? "" };
  const rounds = new Map<string, number[]>();
  try {
    for (let r = 0; r < ROUNDS; r++) {
      const order = CHOSEN.map((_, k) => CHOSEN[(k + r) % CHOSEN.length] as Lane);
      for (const lane of order) {
        for (const masq of [true, false]) {
          const add: number[] = [];
          const del: number[] = [];
          for (const [i, ns] of containers.entries()) add.push(await call(ctx, lane, "ADD", i, ns, masq));
          for (const [i, ns] of containers.entries()) del.push(await call(ctx, lane, "DEL", i, ns, masq));
          for (const [cmd, xs] of [
            ["ADD", add],
            ["DEL", del],
          ] as const)
            rounds.set(`${lane} ${masq} ${cmd}`, [...(rounds.get(`${lane} ${masq} ${cmd}`) ?? []), median(xs)]);
        }
      }
    }
  } finally {
    for (const d of daemons) await d.stop();
  }
  report(rounds, containers.length);
}

/** The table: per row, each lane's median and the ratios against the matching reference lane. */
function report(rounds: Map<string, number[]>, n: number): void {
  const m = (lane: Lane, masq: boolean, cmd: string): number => median(rounds.get(`${lane} ${masq} ${cmd}`) ?? []);
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  console.log(`bridge with ipMasq (iptables), ${ROUNDS} interleaved rounds of ${n} containers, load average ${load}\n`);
  const against: Record<Lane, Lane> = {
    "ref exec": "ref exec",
    "ours exec": "ref exec",
    refcni: "refcni",
    "ours cni": "refcni",
    "ours daemon": "ref exec",
  };
  const ratioCols = CHOSEN.filter((l) => !l.startsWith("ref") && CHOSEN.includes(against[l]));
  console.log(`| ms | ${CHOSEN.join(" | ")} | ${ratioCols.map((l) => `${l} / ${against[l]}`).join(" | ")} |`);
  console.log(`|---|${CHOSEN.map(() => "---|").join("")}${ratioCols.map(() => "---|").join("")}`);
  const json: Record<string, number> = {};
  const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "-");
  for (const cmd of ["ADD", "DEL"]) {
    const rows: [string, (l: Lane) => number][] = [
      [`${cmd} with ipMasq`, (l) => m(l, true, cmd)],
      [`${cmd} without ipMasq`, (l) => m(l, false, cmd)],
      [`masquerading's share of ${cmd}`, (l) => m(l, true, cmd) - m(l, false, cmd)],
    ];
    for (const [label, f] of rows) {
      const ratios = ratioCols.map((l) => `${(f(l) / f(against[l])).toFixed(2)}×`);
      console.log(`| ${label} | ${CHOSEN.map((l) => fmt(f(l))).join(" | ")} | ${ratios.join(" | ")} |`);
      for (const l of CHOSEN) json[`${label} / ${l}`] = f(l);
    }
  }
  console.log(`\nJSON ${JSON.stringify(json)}`);
}

async function outer(): Promise<void> {
  if (process.getuid?.() !== 0) {
    console.error("bench-masq: needs root (it creates throwaway network namespaces)");
    process.exit(1);
  }
  for (const [side, dir] of Object.entries({ ours: OURS, reference: REFERENCE })) {
    if (!existsSync(join(dir, "bridge"))) {
      console.error(`bench-masq: ${side}'s bridge is missing in ${dir}`);
      process.exit(1);
    }
  }
  const { runInsideThrowawayHost } = await import("./lib/netns.ts");
  const code = await runInsideThrowawayHost("bench-masq", N, [process.execPath, "run", import.meta.path, "--inner"]);
  if (code !== 0) process.exitCode = code;
}

if (process.argv.includes("--inner")) await inner();
else await outer();
