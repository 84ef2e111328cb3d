/**
 * bridge ADD and DEL with `ipMasq` (iptables, the default backend), ours against the
 * reference Go bridge v1.1.1 (/usr/lib/cni) in one interleaved run: in each round both
 * sides ADD the same number of containers and DEL them again, the order of the sides
 * alternating from round to round, so a busy machine weighs on both alike. Each side
 * has its own network, bridge and subnet; after a side's DELs no rule of it is left, so
 * each side starts its round on the same rule set. Each round also runs both sides
 * without `ipMasq`, so the cost of masquerading alone (with minus without) shows apart
 * from the plugin's own. Reported: the median of the rounds' medians, and the ratio
 * ours / reference. Run by `npm run bench` (BENCH_MASQ=0 skips
 * it) or alone as root: `bun run scripts/bench-masq.ts`.
 *
 * BENCH_MASQ_ROUNDS (default 10) and BENCH_MASQ_CONTAINERS (default 10) size the run.
 * BENCH_MASQ_VIA=cni makes every call a `cni add`/`cni del` of our binary on a one-plugin
 * list instead of a spawn of the plugin: ours then run in process (the fast path), the
 * reference's bridge is exec'd by our `cni` as any runtime would.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const OURS = process.env.BENCH_BIN ?? new URL("../dist/bin", import.meta.url).pathname;
const REFERENCE = "/usr/lib/cni";
const ROUNDS = Number(process.env.BENCH_MASQ_ROUNDS ?? 10);
const N = Number(process.env.BENCH_MASQ_CONTAINERS ?? 10);
const VIA_CNI = process.env.BENCH_MASQ_VIA === "cni";

type Side = "ours" | "reference";
const DIRS: Record<Side, string> = { ours: OURS, reference: REFERENCE };

/** Through `cni`: the one-plugin list of `config` under BENCH_DIR, and the call's argv and env. */
function viaCni(
  side: Side,
  command: "ADD" | "DEL",
  cid: string,
  netns: string,
  config: { name: string; cniVersion: string },
): { argv: string[]; env: Record<string, string> } {
  const { name, cniVersion, ...plugin } = config;
  const work = join(
    process.env.BENCH_DIR ?? "",
    `${name}-${(plugin as { ipMasq?: boolean }).ipMasq ? "masq" : "plain"}`,
  );
  mkdirSync(join(work, "net.d"), { recursive: true });
  writeFileSync(join(work, "net.d", "10.conflist"), JSON.stringify({ cniVersion, name, plugins: [plugin] }));
  const env = {
    PATH: process.env.PATH ?? "",
    NETCONFPATH: join(work, "net.d"),
    CNI_PATH: DIRS[side],
    CNI_CACHE_DIR: join(work, "cache"),
    CNI_IFNAME: "eth0",
  };
  return { argv: [join(OURS, "cni"), command === "ADD" ? "add" : "del", name, netns], env };
}

async function call(
  side: Side,
  command: "ADD" | "DEL",
  cid: string,
  netns: string,
  config: { name: string; cniVersion: string },
): Promise<number> {
  const dir = DIRS[side];
  const direct = {
    argv: [join(dir, "bridge")],
    env: {
      PATH: process.env.PATH ?? "",
      CNI_COMMAND: command,
      CNI_CONTAINERID: cid,
      CNI_NETNS: netns,
      CNI_IFNAME: "eth0",
      CNI_ARGS: "",
      CNI_PATH: dir,
    },
  };
  const { argv, env } = VIA_CNI ? viaCni(side, command, cid, netns, config) : direct;
  const t0 = performance.now();
  const proc = Bun.spawn(argv, {
    env,
    stdin: new TextEncoder().encode(JSON.stringify(config)),
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = await new Response(proc.stdout).text();
  const code = await proc.exited;
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`${side} bridge ${command} failed: ${out}`);
  return ms;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function inner(): Promise<void> {
  const containers = (process.env.BENCH_NETNS ?? "").split(",").slice(0, N);
  const work = process.env.BENCH_DIR ?? "";
  const config = (side: Side, i: number, ipMasq: boolean) => ({
    cniVersion: "1.0.0",
    name: `bench-masq-${side}`,
    type: "bridge",
    bridge: `tscnimq${i}`,
    isGateway: true,
    ipMasq,
    ipam: { type: "host-local", ranges: [[{ subnet: `198.18.${70 + i}.0/24` }]], dataDir: join(work, "ipam") },
  });
  type Key = `${Side} ${boolean}`;
  const rounds = new Map<Key, Record<"ADD" | "DEL", number[]>>();
  for (let r = 0; r < ROUNDS; r++) {
    const order: Side[] = r % 2 === 0 ? ["ours", "reference"] : ["reference", "ours"];
    for (const side of order) {
      for (const masq of [true, false]) {
        const cfg = config(side, side === "ours" ? 0 : 1, masq);
        const add: number[] = [];
        const del: number[] = [];
        for (const [i, ns] of containers.entries()) add.push(await call(side, "ADD", `mq${r}-${i}`, ns, cfg));
        for (const [i, ns] of containers.entries()) del.push(await call(side, "DEL", `mq${r}-${i}`, ns, cfg));
        const k: Key = `${side} ${masq}`;
        const got = rounds.get(k) ?? { ADD: [], DEL: [] };
        got.ADD.push(median(add));
        got.DEL.push(median(del));
        rounds.set(k, got);
      }
    }
  }
  const m = (side: Side, masq: boolean, cmd: "ADD" | "DEL"): number =>
    median(rounds.get(`${side} ${masq}`)?.[cmd] ?? []);
  const load = (await import("node:os"))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  console.log(
    `bridge with ipMasq (iptables)${VIA_CNI ? " through `cni add`/`cni del` (ours in process)" : ""}, ${ROUNDS} interleaved rounds of ${containers.length} containers, load average ${load}\n`,
  );
  console.log("| measurement | ours ms | reference ms | ratio |\n|---|---|---|---|");
  const report: Record<string, number> = {};
  const row = (label: string, ours: number, ref: number) =>
    console.log(`| ${label} | ${ours.toFixed(1)} | ${ref.toFixed(1)} | ${(ours / ref).toFixed(2)}× |`);
  for (const cmd of ["ADD", "DEL"] as const) {
    const [ours, ref] = [m("ours", true, cmd), m("reference", true, cmd)];
    const [oursBase, refBase] = [m("ours", false, cmd), m("reference", false, cmd)];
    row(`bridge ${cmd} with ipMasq`, ours, ref);
    row(`bridge ${cmd} without ipMasq`, oursBase, refBase);
    row(`masquerading's share of ${cmd} (with minus without)`, ours - oursBase, ref - refBase);
    Object.assign(report, {
      [`masq.${cmd}.ours`]: ours,
      [`masq.${cmd}.reference`]: ref,
      [`plain.${cmd}.ours`]: oursBase,
      [`plain.${cmd}.reference`]: refBase,
    });
  }
  console.log(`\nJSON ${JSON.stringify(report)}`);
}

async function outer(): Promise<void> {
  if (process.getuid?.() !== 0) {
    console.error("bench-masq: needs root (it creates throwaway network namespaces)");
    process.exit(1);
  }
  for (const [side, dir] of Object.entries(DIRS)) {
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
