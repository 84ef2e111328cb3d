/**
 * Every kind of nftables transaction our own plugins render, for representative configs:
 * portmap's nftables backend (§8.5: IPv4 and IPv6, hostIP of each family and the
 * wildcard, tcp/udp/sctp, snat off, masqAll, a non-default markMasqBit), ipMasq with
 * `ipMasqBackend: nftables` as bridge and ptp make it (H-3: /24, /20, /32, /64, /65,
 * /128 networks), and bridge's `macspoofchk`. Each scenario is a lifecycle (ADD, ADD again,
 * a second container, DEL of each, DEL again) played on the fake firewall, so the scripts
 * are what renderNftScript writes against the state each step finds: `add`, `flush`,
 * `delete rule ... handle N`, `delete chain`. A user's `conditionsV4`/`V6` are not here:
 * they are the user's text and may go to `nft` by design.
 */
import {
  type FirewallOp,
  type FirewallTx,
  type NftChainState,
  type NftFamily,
  type NftOp,
  isIptablesOp,
  planMasqSetup,
  planMasqTeardown,
  renderNftScript,
} from "@tscni/firewall";
import { FakeFirewall } from "@tscni/firewall/fake";
import { type IPNet, parseCIDR } from "@tscni/spec/ipnet";
import { planSpoofCheckSetup, planSpoofCheckTeardown, spoofCheckId } from "../bridge/spoofcheck.ts";
import type { PortmapConfig } from "../portmap/config.ts";
import { NFT_TABLE, planNftAdd, planNftDel } from "../portmap/plan-nft.ts";
import { mapping, portmapConfig } from "./portmap-config.ts";

/** One step of a scenario: a transaction, or a function of the state (DEL plans from a read). */
type Step = FirewallTx | ((fw: FakeFirewall) => Promise<FirewallTx>);

/** A named lifecycle of transactions. */
export interface NftScenario {
  name: string;
  steps: Step[];
}

const cidr = (s: string): IPNet => parseCIDR(s) as IPNet;

const MAPPINGS = [
  mapping(8080, 80),
  mapping(53, 5353, "udp", "198.18.0.1"),
  mapping(5000, 5000, "sctp", "0.0.0.0"),
  mapping(8443, 443, "tcp", "2001:db8::1"),
  mapping(9000, 9000, "udp", "::"),
];

/** portmap's DEL as the plugin plans it: from both families' tables as read. */
function portmapDel(cid: string): Step {
  return async (fw) => {
    const tables = new Map<NftFamily, NftChainState[]>();
    for (const family of ["ip", "ip6"] as const) {
      const chains = await fw.nftTable(family, NFT_TABLE);
      if (chains !== undefined) tables.set(family, chains);
    }
    return planNftDel(cid, tables);
  };
}

function portmap(name: string, extra: Partial<PortmapConfig>, container: (n: number) => string): NftScenario {
  const conf = portmapConfig({ backend: "nftables", portMappings: MAPPINGS, ...extra });
  const add = (cid: string, n: number): FirewallOp[] => planNftAdd(conf, cid, cidr(container(n)));
  return {
    name,
    steps: [add("c1", 5), add("c1", 5), add("c2", 6), portmapDel("c1"), portmapDel("c2"), portmapDel("c2")],
  };
}

function masq(name: string, addrs: (n: number) => string[]): NftScenario {
  const setup = (cid: string, n: number) => planMasqSetup("nftables", addrs(n).map(cidr), "masqnet", "eth0", cid);
  const teardown = (cid: string, n: number) => planMasqTeardown("nftables", addrs(n).map(cidr), "masqnet", "eth0", cid);
  return {
    name,
    steps: [setup("c1", 5), setup("c1", 5), setup("c2", 6), teardown("c1", 5), teardown("c2", 6), teardown("c2", 6)],
  };
}

function spoofcheck(): NftScenario {
  const id1 = spoofCheckId("c1", "eth0");
  const id2 = spoofCheckId("c2", "eth0");
  return {
    name: "bridge macspoofchk",
    steps: [
      planSpoofCheckSetup("veth1a2b3c4d", "0A:58:C6:12:00:05", id1),
      planSpoofCheckSetup("veth1a2b3c4d", "0A:58:C6:12:00:05", id1),
      planSpoofCheckSetup("veth5e6f7a8b", "0a:58:c6:12:00:06", id2),
      planSpoofCheckTeardown(id1),
      planSpoofCheckTeardown(id2),
      planSpoofCheckTeardown(id2),
    ],
  };
}

/** The scenarios, each on its own fresh firewall. */
export const NFT_SCENARIOS: readonly NftScenario[] = [
  portmap("portmap IPv4", {}, (n) => `198.18.0.${n}/24`),
  portmap("portmap IPv6", {}, (n) => `2001:db8::${n}/64`),
  portmap("portmap IPv4 masqAll", { masqAll: true }, (n) => `198.18.0.${n}/24`),
  portmap("portmap IPv6 masqAll", { masqAll: true }, (n) => `2001:db8::${n}/64`),
  portmap("portmap IPv4 without snat, mark bit 20", { snat: false, markMasqBit: 20 }, (n) => `198.18.0.${n}/24`),
  portmap("portmap IPv6 without snat", { snat: false }, (n) => `2001:db8::${n}/64`),
  masq("ipMasq dual stack /24 /64", (n) => [`198.18.0.${n}/24`, `2001:db8::${n}/64`]),
  masq("ipMasq /20 /65", (n) => [`198.18.16.${n}/20`, `2001:db8:0:1:8000::${n}/65`]),
  masq("ipMasq /32 /128 (ptp-style host addresses)", (n) => [`198.18.0.${n}/32`, `2001:db8::${n}/128`]),
  masq("ipMasq two addresses of one family", (n) => [`198.18.0.${n}/24`, `198.18.1.${n}/24`]),
  spoofcheck(),
];

/** One transaction's nft script as the backend renders it from the state it reads, or undefined when nothing changes. */
export interface RenderedTx {
  scenario: string;
  step: number;
  script: string | undefined;
}

/** Plays every scenario on a fresh fake firewall and returns each step's script, in order. */
export async function renderScenarios(scenarios: readonly NftScenario[] = NFT_SCENARIOS): Promise<RenderedTx[]> {
  const out: RenderedTx[] = [];
  for (const s of scenarios) {
    const fw = new FakeFirewall();
    for (const [i, step] of s.steps.entries()) {
      const tx = typeof step === "function" ? await step(fw) : step;
      const ops = tx.filter((op): op is NftOp => !isIptablesOp(op));
      const reads = new Map<string, NftChainState[] | undefined>();
      for (const op of ops) reads.set(`${op.family} ${op.table}`, await fw.nftTable(op.family, op.table));
      out.push({ scenario: s.name, step: i, script: renderNftScript(ops, (f, t) => reads.get(`${f} ${t}`)) });
      await fw.apply(tx);
    }
  }
  return out;
}

/** The `add`/`insert rule` lines of a script: family, table, chain, rule text (comment apart). */
export function ruleLines(script: string): { family: string; rule: string }[] {
  return script
    .split("\n")
    .map((l) => /^(?:add|insert) rule (\S+) \S+ \S+ (.*?)(?: comment "[^"]*")?$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ family: m[1] as string, rule: m[2] as string }));
}

/**
 * The distinct `add`/`insert` lines of every rendered script, in first-seen order: the
 * golden fixture (fixtures/nft-renderings.nft) that `nft -f` runs in one fresh namespace.
 * `flush`, `delete rule ... handle` and `delete chain` lines are the same few forms
 * whatever the rules, golden-tested by the firewall package's delete.nft.
 */
export function distinctAddLines(rendered: readonly RenderedTx[]): string[] {
  const seen = new Set<string>();
  for (const t of rendered)
    for (const line of (t.script ?? "").split("\n")) if (/^(add|insert) /.test(line)) seen.add(line);
  return [...seen];
}

// `bun packages/plugins/testing/nft-renderings.ts` prints the fixture (capture-nft-renderings.sh).
if (import.meta.main) console.log(distinctAddLines(await renderScenarios()).join("\n"));
