/**
 * The reference's iptables rules for one container and family (§8.5 "iptables rule
 * layout", `fillDnatRules`, `genSetMarkChain`, `genMarkMasqChain`), written in the
 * canonical form `iptables-save -t nat` prints them back, so a read compares with what
 * we planned and rules made by the reference are found by their text.
 */
import { type IptRule, canonicalIptRule, formatChainName, formatDnatComment } from "@tscni/firewall";
import { type IPNet, formatAddr, formatPrefix, network, parseIP } from "@tscni/spec/ipnet";
import type { PortmapConfig, PortMapping } from "./config.ts";

/** The shared chains; never renamed, or upgrades need manual work (portmap_iptables.go). */
export const TOP_DNAT_CHAIN = "CNI-HOSTPORT-DNAT";
/** Sets the masquerade mark. */
export const SETMARK_CHAIN = "CNI-HOSTPORT-SETMARK";
/** Masquerades marked packets; its jump is first in POSTROUTING. */
export const MASQ_CHAIN = "CNI-HOSTPORT-MASQ";

/** The jump to the top-level chain, in PREROUTING and OUTPUT. */
export const TOP_ENTRY_RULE: IptRule = ["-m", "addrtype", "--dst-type", "LOCAL", "-j", TOP_DNAT_CHAIN];

/** The per-container chain `CNI-DN-<hash>`. */
export const dnatChainName = (net: string, containerID: string): string => formatChainName(net, containerID, "DN-");
/** The chain older releases made (`CNI-SN-<hash>`); DEL still removes it. */
export const oldSnatChainName = (net: string, containerID: string): string => formatChainName(net, containerID, "SN-");

/** `0x2000/0x2000` for bit 13, as Go's `%#x/%#x`. */
export function markDef(bit: number): string {
  const hex = `0x${(2 ** bit).toString(16)}`;
  return `${hex}/${hex}`;
}

/** The rule of CNI-HOSTPORT-SETMARK. */
export const setMarkRule = (bit: number): IptRule => [
  "-m",
  "comment",
  "--comment",
  "CNI portfwd masquerade mark",
  "-j",
  "MARK",
  "--set-xmark",
  markDef(bit),
];
/** The rule of CNI-HOSTPORT-MASQ. */
export const masqRule = (bit: number): IptRule => ["-m", "mark", "--mark", markDef(bit), "-j", "MASQUERADE"];
/** The jump prepended to POSTROUTING. */
export const MASQ_ENTRY_RULE: IptRule = [
  "-m",
  "comment",
  "--comment",
  "CNI portfwd requiring masquerade",
  "-j",
  MASQ_CHAIN,
];

/** Protocols whose `--dport` makes iptables load the match of the same name (`-m tcp`). */
const PORT_PROTOCOLS = new Set(["tcp", "udp", "sctp", "dccp", "udplite"]);
const PROTO_NUMBERS: Readonly<Record<string, string>> = {
  "6": "tcp",
  "17": "udp",
  "132": "sctp",
  "33": "dccp",
  "136": "udplite",
};

/** The protocol as iptables-save names it (lower case; numbers of known protocols by name). */
export function saveProto(proto: string): string {
  const p = proto.toLowerCase();
  return PROTO_NUMBERS[p] ?? p;
}

/** An address or CIDR as iptables-save prints it: with a prefix, host bits cleared. */
export function saveAddr(text: string): string {
  const [addr = "", prefix] = text.split("/");
  const ip = parseIP(addr);
  if (ip === undefined) return text;
  const bits = prefix === undefined ? (ip.family === 4 ? 32 : 128) : Number(prefix);
  return formatPrefix(network({ ip, prefix: bits }));
}

/** Groups host ports by protocol, protocols sorted (`groupByProto` + `sort.Strings`). */
function portsByProto(maps: readonly PortMapping[]): [string, number[]][] {
  const out = new Map<string, number[]>();
  for (const m of maps) out.set(m.protocol, [...(out.get(m.protocol) ?? []), m.hostPort]);
  return [...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** multiport takes at most 15 ports per rule (`splitPortList`). */
function chunks(ports: readonly number[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < ports.length; i += 15) out.push(ports.slice(i, i + 15).join(","));
  return out;
}

/** The per-container chain: its name, its rules, and its entry rules in CNI-HOSTPORT-DNAT. */
export interface DnatChain {
  name: string;
  rules: IptRule[];
  entryRules: IptRule[];
}

/** Host IP of a mapping for this family: "skip" for the other family, undefined for any. */
function hostDst(m: PortMapping, family: 4 | 6): string | undefined | "skip" {
  if (m.hostIP === "") return undefined;
  const ip = parseIP(m.hostIP);
  // Go's net.ParseIP: an unparsable address has no To4() and counts as IPv6.
  if ((ip?.family ?? 6) !== family) return "skip";
  if (ip !== undefined && ip.value === 0n) return undefined; // 0.0.0.0 and :: mean any (§8.5 ADD 6)
  return ip === undefined ? m.hostIP : saveAddr(m.hostIP);
}

/** The container's DNAT chain for one family (`genDnatChain` + `fillDnatRules`). */
export function dnatChain(conf: PortmapConfig, containerID: string, container: IPNet): DnatChain {
  const family = container.ip.family;
  const name = dnatChainName(conf.name, containerID);
  const comment = formatDnatComment(conf.name, containerID);
  const conds = family === 6 ? conf.conditionsV6 : conf.conditionsV4;
  const entryRules: IptRule[] = [];
  for (const [proto, ports] of portsByProto(conf.portMappings)) {
    for (const spec of chunks(ports)) {
      // The reference's argv, user conditions included, in the form iptables-save prints back.
      const argv = [
        "-m",
        "comment",
        "--comment",
        comment,
        "-m",
        "multiport",
        "-p",
        proto,
        "--destination-ports",
        spec,
        ...conds,
        "-j",
        name,
      ];
      entryRules.push(canonicalIptRule(family, argv));
    }
  }
  const mark = conf.externalSetMarkChain ?? SETMARK_CHAIN;
  const rules: IptRule[] = [];
  for (const m of conf.portMappings) {
    const dst = hostDst(m, family);
    if (dst === "skip") continue;
    const proto = saveProto(m.protocol);
    const match = [...(PORT_PROTOCOLS.has(proto) ? ["-m", proto] : []), "--dport", String(m.hostPort)];
    const d = dst === undefined ? [] : ["-d", dst];
    if (conf.snat) {
      // The hairpin source is the container's subnet as iptables stores it; any with masqAll.
      const src = conf.masqAll ? [] : ["-s", formatPrefix(network(container))];
      rules.push([...src, ...d, "-p", proto, ...match, "-j", mark]);
      if (family === 4 && !conf.masqAll) rules.push(["-s", "127.0.0.1/32", ...d, "-p", proto, ...match, "-j", mark]);
    }
    const to =
      family === 6
        ? `[${formatAddr(container.ip)}]:${m.containerPort}`
        : `${formatAddr(container.ip)}:${m.containerPort}`;
    rules.push([...d, "-p", proto, ...match, "-j", "DNAT", "--to-destination", to]);
  }
  return { name, rules, entryRules };
}
