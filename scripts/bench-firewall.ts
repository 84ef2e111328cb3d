/**
 * Benchmark (not a test): the firewall transports, to choose how nftables changes are
 * written (issue 9: nfnetlink over bun:ffi or `nft -f -`). Inside a throwaway namespace
 * it times, interleaved round by round, the medians of:
 *  - a spawn of /bin/true (the floor of any tool);
 *  - `nft -f -` for an ipMasq ADD (table, two chains, four rules) and for its DEL, and
 *    `nft -a -s list table` (the read before a change);
 *  - `iptables-restore --noflush --wait` for the same ADD and DEL and `iptables-save -t
 *    nat`, with iptables-nft and iptables-legacy;
 *  - one raw nfnetlink batch (new table + delete table, acknowledged) through bun:ffi:
 *    the floor of an in-process nftables writer;
 *  - our whole Firewall.apply (read, render, write) for the ADD and the DEL (by the read
 *    path, and read-free as bridge/ptp send it, render-ipt-optimistic.ts), both backends,
 *    nftables over nfnetlink (the default) and over `nft`, and the DEL's nftables probe.
 *
 *   bun scripts/bench-firewall.ts [rounds=30]      (root)
 */
import { createLinuxFirewall } from "@tscni/firewall/linux";
import { iptablesVariantDir } from "@tscni/firewall/testing";
import {
  formatChainName,
  formatComment,
  planMasqTeardown,
  nftMasqComment,
  renderIptRestore,
  type FirewallOp,
  type IptablesOp,
} from "@tscni/firewall";
import { parseIP } from "@tscni/spec/ipnet";
import { runInsideThrowawayHost } from "./lib/netns.ts";

const rounds = Number(process.argv[2] ?? 30);

if (process.env.BENCH_NETNS === undefined) {
  process.exit(await runInsideThrowawayHost("fwbench", 0, [process.execPath, import.meta.path, String(rounds)]));
}

const ms = (t0: number): number => (Bun.nanoseconds() - t0) / 1e6;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const cpu = new Map<string, number[]>();
let lastCpu: number | undefined;
/** Runs a tool; remembers its CPU time (user + system), steadier than wall time on a loaded machine. */
function sh(argv: string[], stdin?: string): void {
  const r = Bun.spawnSync(argv, {
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr.toString()}`);
  const u = r.resourceUsage?.cpuTime;
  lastCpu = u === undefined ? undefined : (Number(u.user) + Number(u.system)) / 1000;
}

// The ipMasq change of one container (H-3), in both backends' terms.
const CH = formatChainName("bench", "c1");
const CM = formatComment("bench", "c1");
const iptAdd: IptablesOp[] = [
  { op: "ipt.chain.ensure", family: 4, table: "nat", chain: CH, fresh: true },
  {
    op: "ipt.rule.append",
    family: 4,
    table: "nat",
    chain: CH,
    rule: ["-d", "198.18.0.0/24", "-m", "comment", "--comment", CM, "-j", "ACCEPT"],
  },
  {
    op: "ipt.rule.append",
    family: 4,
    table: "nat",
    chain: CH,
    rule: ["!", "-d", "224.0.0.0/4", "-m", "comment", "--comment", CM, "-j", "MASQUERADE"],
  },
  {
    op: "ipt.rule.append",
    family: 4,
    table: "nat",
    chain: "POSTROUTING",
    rule: ["-s", "198.18.0.5/32", "-m", "comment", "--comment", CM, "-j", CH],
  },
];
/** DEL as the read path does it (no address known: remove the chain with every jump to it). */
const iptDel: IptablesOp[] = [{ op: "ipt.chain.remove", family: 4, table: "nat", chain: CH }];
/** DEL as bridge/ptp send it (the address known): one read-free restore (render-ipt-optimistic.ts). */
const iptDelGuess = planMasqTeardown("iptables", [{ ip: parseIP("198.18.0.5")!, prefix: 24 }], "bench", "eth0", "c1");
const T = { family: "inet", table: "cni_plugins_masquerade" } as const;
const NC = nftMasqComment("bench", "eth0", "c1");
const nftAdd: FirewallOp[] = [
  { op: "nft.table.ensure", ...T },
  { op: "nft.chain.ensure", ...T, chain: "masq_checks" },
  {
    op: "nft.chain.ensure",
    ...T,
    chain: "postrouting",
    base: { type: "nat", hook: "postrouting", priority: "srcnat" },
  },
  { op: "nft.chain.flush", ...T, chain: "postrouting" },
  { op: "nft.rule.add", ...T, chain: "postrouting", rule: "ip daddr 224.0.0.0/4 return" },
  { op: "nft.rule.add", ...T, chain: "postrouting", rule: "ip6 daddr ff00::/8 return" },
  { op: "nft.rule.add", ...T, chain: "postrouting", rule: "goto masq_checks" },
  {
    op: "nft.rule.add",
    ...T,
    chain: "masq_checks",
    rule: "ip saddr 198.18.0.5 ip daddr != 198.18.0.0/24 masquerade",
    comment: NC,
  },
];
const nftDel: FirewallOp[] = [{ op: "nft.rule.delete", ...T, chain: "masq_checks", commentPrefix: NC.slice(0, 33) }];
const NFT_ADD = [
  "add table inet cni_plugins_masquerade",
  "add chain inet cni_plugins_masquerade masq_checks",
  "add chain inet cni_plugins_masquerade postrouting { type nat hook postrouting priority srcnat ; }",
  "add rule inet cni_plugins_masquerade postrouting ip daddr 224.0.0.0/4 return",
  "add rule inet cni_plugins_masquerade postrouting ip6 daddr ff00::/8 return",
  "add rule inet cni_plugins_masquerade postrouting goto masq_checks",
  `add rule inet cni_plugins_masquerade masq_checks ip saddr 198.18.0.5 ip daddr != 198.18.0.0/24 masquerade comment "${NC}"`,
].join("\n");

/** One acknowledged nfnetlink batch: begin, new table, delete table, end (the floor of an in-process writer). */
async function nfnlRoundTrip(): Promise<() => void> {
  const { dlopen, FFIType: F } = await import("bun:ffi");
  const { symbols: s } = dlopen("libc.so.6", {
    socket: { args: [F.i32, F.i32, F.i32], returns: F.i32 },
    send: { args: [F.i32, F.ptr, F.u64, F.i32], returns: F.i64_fast },
    recv: { args: [F.i32, F.ptr, F.u64, F.i32], returns: F.i64_fast },
    close: { args: [F.i32], returns: F.i32 },
  });
  const name = new TextEncoder().encode("fwbench\0");
  const msg = (
    type: number,
    flags: number,
    seq: number,
    family: number,
    resId: number,
    attr?: Uint8Array,
  ): Uint8Array => {
    const alen = attr === undefined ? 0 : (4 + attr.length + 3) & ~3;
    const b = new Uint8Array(16 + 4 + alen);
    const v = new DataView(b.buffer);
    v.setUint32(0, b.length, true);
    v.setUint16(4, type, true);
    v.setUint16(6, flags, true);
    v.setUint32(8, seq, true);
    b[16] = family; // nfgenmsg: family, version 0, res_id (big endian)
    v.setUint16(18, resId, false);
    if (attr !== undefined) {
      v.setUint16(20, 4 + attr.length, true);
      v.setUint16(22, 1, true); // NFTA_TABLE_NAME
      b.set(attr, 24);
    }
    return b;
  };
  const REQ = 1,
    ACK = 4,
    CREATE = 0x400;
  const NFT = 10 << 8; // NFNL_SUBSYS_NFTABLES
  const buf = new Uint8Array(8192);
  return () => {
    const fd = s.socket(16, 3 | 0x80000, 12); // AF_NETLINK, SOCK_RAW|CLOEXEC, NETLINK_NETFILTER
    if (fd < 0) throw new Error("netlink socket");
    const parts = [
      msg(0x10, REQ, 1, 0, 10),
      msg(NFT | 0, REQ | ACK | CREATE, 2, 1, 0, name),
      msg(NFT | 2, REQ | ACK, 3, 1, 0, name),
      msg(0x11, REQ, 4, 0, 10),
    ];
    const batch = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let off = 0;
    for (const p of parts) {
      batch.set(p, off);
      off += p.length;
    }
    s.send(fd, batch, batch.length, 0);
    let acks = 0;
    while (acks < 2) {
      const n = Number(s.recv(fd, buf, buf.length, 0));
      if (n <= 0) throw new Error("netlink recv");
      for (let o = 0; o < n; ) {
        const v = new DataView(buf.buffer, o);
        const len = v.getUint32(0, true);
        if (v.getUint16(4, true) === 2) {
          if (v.getInt32(16, true) !== 0) throw new Error(`nfnetlink errno ${-v.getInt32(16, true)}`);
          acks++;
        }
        o += (len + 3) & ~3;
      }
    }
    s.close(fd);
  };
}

const legacy = iptablesVariantDir("legacy");
const nftv = iptablesVariantDir("nft");
const samples = new Map<string, number[]>();
const time = async (label: string, fn: () => unknown): Promise<void> => {
  lastCpu = undefined;
  const t0 = Bun.nanoseconds();
  await fn();
  const list = samples.get(label) ?? [];
  list.push(ms(t0));
  samples.set(label, list);
  if (lastCpu !== undefined) cpu.set(label, [...(cpu.get(label) ?? []), lastCpu]);
};
try {
  const nfnl = await nfnlRoundTrip();
  const fwNft = await createLinuxFirewall({ path: nftv.dir });
  const fwLegacy = await createLinuxFirewall({ path: legacy.dir });
  const fwCli = await createLinuxFirewall({ path: nftv.dir, nftTransport: "nft" });
  const iptAddText = renderIptRestore(iptAdd, 4, () => []) ?? "";
  const iptDelText = `*nat\n-D POSTROUTING -s 198.18.0.5/32 -m comment --comment "${CM.replaceAll('"', '\\"')}" -j ${CH}\n-F ${CH}\n-X ${CH}\nCOMMIT\n`;
  for (let i = 0; i < rounds; i++) {
    await time("spawn /bin/true", () => sh(["/bin/true"]));
    await time("nft -f - (ipMasq ADD)", () => sh(["nft", "-f", "-"], NFT_ADD));
    await time("nft -a -s list table", () => sh(["nft", "-a", "-s", "list", "table", "inet", T.table]));
    await time("nft -f - (delete table)", () => sh(["nft", "-f", "-"], `delete table inet ${T.table}\n`));
    await time("nfnetlink batch via bun:ffi (new+delete table)", nfnl);
    for (const [v, dir] of [
      ["nft", nftv.dir],
      ["legacy", legacy.dir],
    ] as const) {
      await time(`iptables-${v}-restore (ipMasq ADD)`, () =>
        sh([`${dir}/iptables-restore`, "--noflush", "--wait"], iptAddText),
      );
      await time(`iptables-${v}-save -t nat`, () => sh([`${dir}/iptables-save`, "-t", "nat"]));
      await time(`iptables-${v}-restore (ipMasq DEL)`, () =>
        sh([`${dir}/iptables-restore`, "--noflush", "--wait"], iptDelText),
      );
    }
    for (const [v, fw] of [
      ["nft", fwNft],
      ["legacy", fwLegacy],
    ] as const) {
      await time(`Firewall.apply iptables-${v} ipMasq ADD`, () => fw.apply(iptAdd));
      await time(`Firewall.apply iptables-${v} ipMasq DEL (read path)`, () => fw.apply(iptDel));
      await fw.apply(iptAdd);
      await time(`Firewall.apply iptables-${v} ipMasq DEL (read-free)`, () => fw.apply(iptDelGuess));
    }
    await time("Firewall.apply nftables (nfnetlink) ipMasq ADD", () => fwNft.apply(nftAdd));
    await time("Firewall.apply nftables (nfnetlink) ipMasq DEL", () => fwNft.apply(nftDel));
    await time("Firewall.nftTable (nfnetlink), DEL's probe", () => fwNft.nftTable("inet", T.table));
    await fwNft.apply([{ op: "nft.table.remove", ...T }]);
    await time("Firewall.apply nftables (nft) ipMasq ADD", () => fwCli.apply(nftAdd));
    await time("Firewall.apply nftables (nft) ipMasq DEL", () => fwCli.apply(nftDel));
    await time("Firewall.nftTable (nft), DEL's probe", () => fwCli.nftTable("inet", T.table));
    await fwCli.apply([{ op: "nft.table.remove", ...T }]);
  }
  const load = (await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ");
  console.log(`firewall transports, ${rounds} interleaved rounds, medians in ms (load ${load})`);
  console.log(`  ${"".padEnd(48)} ${"wall".padStart(7)} ${"tool CPU".padStart(9)}`);
  for (const [label, xs] of samples) {
    const c = cpu.get(label);
    console.log(
      `  ${label.padEnd(48)} ${median(xs).toFixed(2).padStart(7)} ${(c === undefined ? "" : median(c).toFixed(2)).padStart(9)}`,
    );
  }
} finally {
  legacy.cleanup();
  nftv.cleanup();
}
