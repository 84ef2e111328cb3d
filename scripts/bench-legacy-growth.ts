/**
 * Benchmark (not a test): why a portmap ADD grows with the nat table on iptables-legacy
 * (issue 9 item 3, docs/PERFORMANCE.md "portmap"). Inside a throwaway namespace, for each
 * table size (containers of portmap's shape: a CNI-DN chain of 9 rules and an entry rule,
 * as bench-portmap.ts fills), and each iptables variant, the median CPU and wall time of:
 *  - `iptables-restore --noflush` of an empty `*nat`/`COMMIT` block (the floor of any write);
 *  - the read-free portmap ADD restore of one more container (and its undo, untimed);
 *  - `iptables-save -t nat` (the read the ADD no longer does);
 *  - `iptables -t filter -S INPUT 1` (the backend probe, which reads filter only).
 *
 *   bun scripts/bench-legacy-growth.ts [rounds=10] [sizes=0,500,1000]     (root)
 */
import { iptablesVariantDir } from "@tscni/firewall/testing";
import { renderIptFresh } from "../packages/firewall/src/render-ipt-fresh.ts";
import { loadavg } from "node:os";
import { runInsideThrowawayHost } from "./lib/netns.ts";

const rounds = Number(process.argv[2] ?? 10);
const sizes = (process.argv[3] ?? "0,500,1000").split(",").map(Number);
if (process.env.BENCH_NETNS === undefined) {
  process.exit(
    await runInsideThrowawayHost("legacygrowth", 0, [
      process.execPath,
      import.meta.path,
      String(rounds),
      sizes.join(","),
    ]),
  );
}

const { parsePortmapConfig } = await import("../packages/plugins/portmap/config.ts");
const { planPortmapAdd } = await import("../packages/plugins/portmap/plan.ts");
const MAPS = [
  { hostPort: 8080, containerPort: 80, protocol: "tcp" },
  { hostPort: 8443, containerPort: 443, protocol: "tcp" },
  { hostPort: 5353, containerPort: 53, protocol: "udp" },
];
/** The read-free restore input (and undo) of container j's portmap ADD. */
async function addOf(j: number): Promise<{ input: string; undo: string }> {
  const conf = {
    cniVersion: "1.0.0",
    name: "growth",
    type: "portmap",
    runtimeConfig: { portMappings: MAPS },
    prevResult: { cniVersion: "1.0.0", ips: [{ address: `198.18.${96 + Math.floor(j / 250)}.${(j % 250) + 2}/24` }] },
  };
  const ops = planPortmapAdd(await parsePortmapConfig(conf, "eth0", async () => "iptables"), `g-${j}`);
  const fresh = renderIptFresh(ops.filter((o) => o.op.startsWith("ipt.")) as Parameters<typeof renderIptFresh>[0], 4);
  if (fresh === undefined) throw new Error("no read-free ADD");
  return fresh;
}

function run(argv: string[], stdin?: string): { cpu: number; wall: number } {
  const t0 = Bun.nanoseconds();
  const r = Bun.spawnSync(argv, {
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const wall = (Bun.nanoseconds() - t0) / 1e6;
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr.toString()}`);
  const u = r.resourceUsage?.cpuTime;
  return { cpu: u === undefined ? Number.NaN : (Number(u.user) + Number(u.system)) / 1000, wall };
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

console.log(
  `iptables write cost against nat table size, ${rounds} rounds, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}\n`,
);
console.log(
  "| variant | containers in nat | empty restore cpu/wall ms | portmap ADD restore cpu/wall ms | iptables-save -t nat cpu/wall ms | filter probe cpu/wall ms |",
);
console.log("|---|---|---|---|---|---|");
const probe = await addOf(1999);
for (const variant of ["legacy", "nft"] as const) {
  const tools = iptablesVariantDir(variant);
  const t = (name: string) => `${tools.dir}/${name}`;
  try {
    run(
      [t("iptables-restore"), "--noflush"],
      '*nat\n-N CNI-HOSTPORT-DNAT\n-A PREROUTING -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT\n-A OUTPUT -m addrtype --dst-type LOCAL -j CNI-HOSTPORT-DNAT\n-N CNI-HOSTPORT-SETMARK\n-A CNI-HOSTPORT-SETMARK -m comment --comment "CNI portfwd masquerade mark" -j MARK --set-xmark 0x2000/0x2000\n-N CNI-HOSTPORT-MASQ\n-A CNI-HOSTPORT-MASQ -m mark --mark 0x2000/0x2000 -j MASQUERADE\n-I POSTROUTING 1 -m comment --comment "CNI portfwd requiring masquerade" -j CNI-HOSTPORT-MASQ\nCOMMIT\n',
    );
    let filled = 0;
    for (const size of sizes) {
      // Fill to `size` containers in batches of 100 per restore (the fill is not timed).
      while (filled < size) {
        const batch: string[] = [];
        for (const j of Array.from({ length: Math.min(100, size - filled) }, (_, k) => filled + k)) {
          const { input } = await addOf(j);
          batch.push(...input.split("\n").filter((l) => l.startsWith("-N") || l.startsWith("-A")));
        }
        run([t("iptables-restore"), "--noflush"], `*nat\n${batch.join("\n")}\nCOMMIT\n`);
        filled += batch.filter((l) => l.startsWith("-N")).length;
      }
      const k: Record<string, { cpu: number; wall: number }[]> = {};
      for (let r = 0; r < rounds; r++) {
        (k.empty ??= []).push(run([t("iptables-restore"), "--noflush", "--wait"], "*nat\nCOMMIT\n"));
        (k.add ??= []).push(run([t("iptables-restore"), "--noflush", "--wait"], probe.input));
        run([t("iptables-restore"), "--noflush", "--wait"], probe.undo);
        (k.save ??= []).push(run([t("iptables-save"), "-t", "nat"]));
        (k.probe ??= []).push(run([t("iptables"), "-t", "filter", "-S", "INPUT", "1"]));
      }
      const f = (xs: { cpu: number; wall: number }[]) =>
        `${median(xs.map((x) => x.cpu)).toFixed(1)} / ${median(xs.map((x) => x.wall)).toFixed(1)}`;
      console.log(`| iptables-${variant} | ${size} | ${f(k.empty!)} | ${f(k.add!)} | ${f(k.save!)} | ${f(k.probe!)} |`);
    }
    run([t("iptables-restore")], "*nat\nCOMMIT\n");
  } finally {
    tools.cleanup();
  }
}
