/**
 * `npm run bench` (its portmap part, also `bun run scripts/bench-portmap.ts`): two chains,
 * bridge (ipMasq) + portmap + firewall with three mappings, and bridge + portmap with one
 * mapping (issue 11 item 4c), against the reference's (/usr/lib/cni, v1.1.1), with
 * CAP_ARGS portMappings, interleaved call by call in one throwaway host namespace. Ours
 * twice through our `cni add`/`cni del`: in process (the default: `cni` runs its own
 * plugins inside itself) and one process per plugin (TSCNI_IN_PROCESS=0, as a runtime
 * that execs plugins sees us); the reference's twice: exec'd by our `cni`, and by the
 * reference's own cnitool-style runtime (refcni, libcni; skipped without Go). Then portmap's ADD time as the nat table grows: 10 ADDs per
 * side on an empty table, then the table is filled with our portmap ADDs up to N
 * containers per side (the reference makes rules of the same shape), then 10 ADDs per
 * side again: the 1st against the Nth container.
 *
 * BENCH_PM_CHAIN=N containers per side for the chain (default 20); BENCH_PM_GROWTH=N
 * containers per side for the growth run (default 500; 0 skips it); BENCH_IPTABLES=legacy
 * runs both sides with iptables-legacy (default: the system's iptables, iptables-nft here).
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const OURS = new URL("../dist/bin", import.meta.url).pathname;
const REF = "/usr/lib/cni";
const CHAIN = Number(process.env.BENCH_PM_CHAIN ?? 20);
const GROWTH = Number(process.env.BENCH_PM_GROWTH ?? 500);
const MAPS = [
  { hostPort: 8080, containerPort: 80, protocol: "tcp" },
  { hostPort: 8443, containerPort: 443, protocol: "tcp" },
  { hostPort: 5353, containerPort: 53, protocol: "udp" },
];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function timed(argv: string[], env: Record<string, string>, stdin = ""): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn(argv, { env, stdin: new TextEncoder().encode(stdin), stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`${argv.join(" ")} failed: ${out}${err}`);
  return ms;
}

async function inner(): Promise<void> {
  const netns = (process.env.BENCH_NETNS ?? "").split(",");
  const dir = process.env.BENCH_DIR ?? "";
  let refcni: string | undefined;
  if (CHAIN > 0) {
    const { buildGo, missingReference } = await import("./compat/_reference.ts");
    const why = missingReference({ plugins: true, go: true, ours: true });
    if (why === undefined) refcni = buildGo("refcni");
    else console.log(`reference (refcni): skipped (${why})`);
  }
  const cni = join(OURS, "cni");
  const sides: Side[] = [
    { name: "tscni", bin: OURS, runtime: cni, bridge: 0, subnet: 0, inProcess: "1" },
    { name: "tscni-exec", bin: OURS, runtime: cni, bridge: 2, subnet: 1, inProcess: "0" },
    { name: "reference", bin: REF, runtime: cni, bridge: 1, subnet: 2, inProcess: "1" },
    ...(refcni === undefined
      ? []
      : [{ name: "reference (refcni)", bin: REF, runtime: refcni, bridge: 3, subnet: 3, inProcess: "1" }]),
  ];
  /** The side's env for one chain: its own list, bridge and subnet (the bridge+portmap chain a second set). */
  const envOf = (side: Side, full: boolean): Record<string, string> => {
    const tag = `${side.bridge}-${full ? "full" : "bp"}`;
    const confDir = join(dir, tag, "net.d");
    mkdirSync(confDir, { recursive: true });
    const subnet = `198.19.${64 + 16 * side.subnet}.0/20`;
    const ipam = {
      type: "host-local",
      ranges: [[{ subnet: full ? subnet : subnet.replace("198.19.", "198.18.") }]],
      dataDir: join(dir, tag, "ipam"),
    };
    const bridge = `tscnipmb${side.bridge + (full ? 0 : 4)}`;
    const plugins = full
      ? [
          { type: "bridge", bridge, isGateway: true, ipMasq: true, ipam },
          { type: "portmap", capabilities: { portMappings: true } },
          { type: "firewall" },
        ]
      : [
          { type: "bridge", bridge, isGateway: true, ipam },
          { type: "portmap", capabilities: { portMappings: true } },
        ];
    const conf = { cniVersion: "1.0.0", name: `bench-pm-${tag}`, plugins };
    writeFileSync(join(confDir, "10-pm.conflist"), JSON.stringify(conf));
    return {
      PATH: PATH_ENV,
      NETCONFPATH: confDir,
      CNI_PATH: side.bin,
      CNI_CACHE_DIR: join(dir, tag, "cache"),
      CNI_IFNAME: "eth0",
      CAP_ARGS: JSON.stringify({ portMappings: full ? MAPS : MAPS.slice(0, 1) }),
      TSCNI_IN_PROCESS: side.inProcess,
    };
  };
  if (CHAIN > 0) {
    for (const full of [true, false]) {
      const envs = sides.map((s) => envOf(s, full));
      const times: Record<string, number[]> = {};
      const record = (k: string, ms: number) => (times[k] ??= []).push(ms);
      await chain(full, sides, envs, netns, times, record);
    }
  }
  if (GROWTH > 0) await growth(netns[0]!);
}

/** One contender: whose plugins, run by which runtime, on which bridge and subnet (indices). */
interface Side {
  name: string;
  bin: string;
  runtime: string;
  bridge: number;
  subnet: number;
  inProcess: string;
}

/** One chain: every side ADDs then DELs CHAIN containers, call by call interleaved, the order rotating. */
async function chain(
  full: boolean,
  sides: Side[],
  envs: Record<string, string>[],
  netns: string[],
  times: Record<string, number[]>,
  record: (k: string, ms: number) => void,
): Promise<void> {
  for (const verb of ["add", "del"]) {
    for (let i = 0; i < CHAIN; i++) {
      for (let k = 0; k < sides.length; k++) {
        const s = (k + i) % sides.length;
        const side = sides[s]!;
        const net = JSON.parse(readFileSync(join(envs[s]!.NETCONFPATH!, "10-pm.conflist"), "utf8")).name as string;
        record(`${side.name} ${verb}`, await timed([side.runtime, verb, net, netns[s * CHAIN + i]!], envs[s]!));
      }
    }
  }
  const what = full ? "bridge (ipMasq) + portmap + firewall, 3 mappings" : "bridge + portmap, 1 mapping";
  console.log(
    `\n${what}, through \`cni add\`/\`cni del\` (refcni for its row), ${CHAIN} containers per side, interleaved, iptables ${process.env.BENCH_IPTABLES ?? "system"}; load average ${(
      await import("node:os")
    )
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}\n`,
  );
  console.log("| chain | ADD median ms | DEL median ms |\n|---|---|---|");
  for (const side of sides)
    console.log(
      `| ${side.name} | ${median(times[`${side.name} add`]!).toFixed(1)} | ${median(times[`${side.name} del`]!).toFixed(1)} |`,
    );
  const ratio = (name: string, verb: string) =>
    (median(times[`${name} ${verb}`]!) / median(times[`reference ${verb}`]!)).toFixed(2);
  for (const name of ["tscni", "tscni-exec"])
    console.log(`\nratio ${name}/reference: ADD ${ratio(name, "add")}x, DEL ${ratio(name, "del")}x`);
  if (times["reference (refcni) add"] !== undefined) {
    const vs = (verb: string) =>
      (median(times[`tscni ${verb}`]!) / median(times[`reference (refcni) ${verb}`]!)).toFixed(2);
    console.log(`ratio tscni/reference (refcni): ADD ${vs("add")}x, DEL ${vs("del")}x`);
  }
}

/** PATH for both sides: the system's, or a directory of iptables-legacy links first. */
const PATH_ENV = ((): string => {
  const path = process.env.PATH ?? "";
  if (process.env.BENCH_IPTABLES !== "legacy" || process.env.BENCH_DIR === undefined) return path;
  const dir = join(process.env.BENCH_DIR, "legacy-bin");
  mkdirSync(dir, { recursive: true });
  for (const name of [
    "iptables",
    "iptables-save",
    "iptables-restore",
    "ip6tables",
    "ip6tables-save",
    "ip6tables-restore",
  ]) {
    const [base, ...rest] = name.split("-");
    symlinkSync(`/usr/sbin/${[`${base}-legacy`, ...rest].join("-")}`, join(dir, name));
  }
  return `${dir}:${path}`;
})();

/** One portmap ADD alone (a prevResult, no bridge) of container `i` of side `s` (0 ours, 1 reference). */
function portmapAdd(netns: string, s: number, i: number): Promise<number> {
  const bin = s === 0 ? OURS : REF;
  const ip = `198.18.${96 + s * 8 + Math.floor(i / 250)}.${(i % 250) + 2}/24`;
  const conf = {
    cniVersion: "1.0.0",
    name: "bench-growth",
    type: "portmap",
    runtimeConfig: { portMappings: MAPS },
    prevResult: { cniVersion: "1.0.0", ips: [{ address: ip }] },
  };
  const env = {
    PATH: PATH_ENV,
    CNI_COMMAND: "ADD",
    CNI_CONTAINERID: `grow-${s}-${i}`,
    CNI_NETNS: netns,
    CNI_IFNAME: "eth0",
    CNI_PATH: bin,
  };
  return timed([join(bin, "portmap")], env, JSON.stringify(conf));
}

/**
 * The middle of the growth run: our portmap's own transactions (plan.ts, the chains and
 * rules its ADD makes, the reference's shape) for 2 x (GROWTH - 20) containers, applied
 * in this process (a spawn per container would take most of the 10 minutes a run gets).
 */
async function fillTable(): Promise<void> {
  const { parsePortmapConfig } = await import("../packages/plugins/portmap/config.ts");
  const { planPortmapAdd } = await import("../packages/plugins/portmap/plan.ts");
  const { createLinuxFirewall } = await import("@tscni/firewall/linux");
  const fw = await createLinuxFirewall({ path: PATH_ENV });
  for (let i = 10; i < GROWTH - 10; i++) {
    for (const j of [i, 1000 + i]) {
      const ip = `198.18.${96 + Math.floor(j / 250)}.${(j % 250) + 2}/24`;
      const conf = {
        cniVersion: "1.0.0",
        name: "bench-growth",
        type: "portmap",
        runtimeConfig: { portMappings: MAPS },
        prevResult: { cniVersion: "1.0.0", ips: [{ address: ip }] },
      };
      await fw.apply(planPortmapAdd(await parsePortmapConfig(conf, "eth0", async () => "iptables"), `grow-0-${j}`));
    }
  }
}

/**
 * portmap ADD on an empty nat table and on one holding GROWTH containers per side: 10
 * interleaved ADDs per side, then fill with our ADDs (the same chains and rules the
 * reference makes) up to GROWTH-10 per side, then 10 interleaved ADDs per side again.
 */
async function growth(netns: string): Promise<void> {
  const at: Record<string, number[]> = {};
  const measure = async (from: number, key: string) => {
    for (let i = from; i < from + 10; i++)
      for (const s of [0, 1]) (at[`${s} ${key}`] ??= []).push(await portmapAdd(netns, s, i));
  };
  await measure(0, "first");
  const t0 = performance.now();
  await fillTable();
  const fill = ((performance.now() - t0) / 1000).toFixed(0);
  await measure(GROWTH - 10, "last");
  console.log(
    `\nportmap ADD as the nat table grows (${GROWTH} containers per side, 3 mappings each; the middle filled by our ADDs in ${fill} s; medians of 10, interleaved)\n`,
  );
  console.log(`| portmap | 1st-10th ADD ms | ${GROWTH - 9}th-${GROWTH}th ADD ms | growth |\n|---|---|---|---|`);
  for (const [s, name] of ["tscni", "reference"].entries()) {
    const a = median(at[`${s} first`]!);
    const b = median(at[`${s} last`]!);
    console.log(`| ${name} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(b / a).toFixed(2)}x |`);
  }
}

async function outer(): Promise<void> {
  if (process.getuid?.() !== 0) {
    console.error("bench-portmap: needs root (it creates throwaway network namespaces)");
    process.exit(1);
  }
  const { runInsideThrowawayHost } = await import("./lib/netns.ts");
  process.exitCode = await runInsideThrowawayHost("benchpm", Math.max(1, 4 * CHAIN), [
    process.execPath,
    "run",
    import.meta.path,
    "--inner",
  ]);
}

if (process.argv.includes("--inner")) await inner();
else await outer();
