/**
 * The iptables form of ipMasq (SPEC H-3), rule for rule what the reference's
 * `pkg/ip/ipmasq_iptables_linux.go` makes: a per-container chain `CNI-<hash>` in `nat`
 * that ACCEPTs traffic to the container's own network and MASQUERADEs the rest
 * (multicast excepted), entered from POSTROUTING by the container's source address.
 * Every rule carries the comment `name: "<net>" id: "<cid>"`; the interface name plays no
 * part, as in the reference ("for historical reasons"). Tokens are in
 * `iptables-save`'s canonical form (addresses with their prefix, host bits cleared,
 * `-m comment` before `-j`), so the backend finds the reference's rules by their text.
 */
import { familyBits, formatIP, network, type IPNet } from "@tscni/spec/ipnet";
import { formatChainName, formatComment } from "../names.ts";
import type { Family, IptablesOp, IptRule } from "../ops.ts";

const TABLE = "nat";

/** Multicast is never masqueraded, so containers keep talking multicast on their network. */
const MULTICAST: Readonly<Record<Family, string>> = { 4: "224.0.0.0/4", 6: "ff00::/8" };

function cidrText(n: IPNet): string {
  return `${formatIP(n.ip)}/${n.prefix}`;
}

/** The family of a result address, as Go's `ipn.IP.To4() == nil` decides it. */
export function familyOf(ipn: IPNet): Family {
  return ipn.ip.family;
}

/** `-m comment --comment <c> -j <target>`: the order `iptables-save` prints. */
function tail(comment: string, target: string): string[] {
  return ["-m", "comment", "--comment", comment, "-j", target];
}

/** The POSTROUTING rule that sends the container's traffic to its chain (`-s <ip>/32`). */
export function iptMasqJump(ipn: IPNet, chain: string, comment: string): IptRule {
  return ["-s", `${formatIP(ipn.ip)}/${familyBits(ipn.ip.family)}`, ...tail(comment, chain)];
}

/**
 * The POSTROUTING rule older releases made, `-s <ip/prefix>` (iptables keeps the
 * network, `198.18.0.0/24`); teardown removes it "for downward compatibility".
 */
export function iptMasqLegacyJump(ipn: IPNet, chain: string, comment: string): IptRule {
  return ["-s", cidrText(network(ipn)), ...tail(comment, chain)];
}

/** The chain's two rules for one address: ACCEPT to its network, MASQUERADE unless multicast. */
export function iptMasqChainRules(ipn: IPNet, comment: string): IptRule[] {
  return [
    ["-d", cidrText(network(ipn)), ...tail(comment, "ACCEPT")],
    ["!", "-d", MULTICAST[familyOf(ipn)], ...tail(comment, "MASQUERADE")],
  ];
}

/**
 * The operations of SetupIPMasq for every address: ensure the chain, append its rules
 * unless present (AppendUnique), then the POSTROUTING jump, per address family.
 */
export function iptMasqSetup(ips: readonly IPNet[], net: string, cid: string): IptablesOp[] {
  const chain = formatChainName(net, cid);
  const comment = formatComment(net, cid);
  const ops: IptablesOp[] = [];
  for (const ipn of ips) {
    const family = familyOf(ipn);
    // The container's own chain (fresh): the backend may write without reading nat first.
    ops.push({ op: "ipt.chain.ensure", family, table: TABLE, chain, fresh: true });
    for (const rule of iptMasqChainRules(ipn, comment))
      ops.push({ op: "ipt.rule.append", family, table: TABLE, chain, rule });
    ops.push({
      op: "ipt.rule.append",
      family,
      table: TABLE,
      chain: "POSTROUTING",
      rule: iptMasqJump(ipn, chain, comment),
    });
  }
  return ops;
}

/**
 * The operations of TeardownIPMasq: delete both forms of the POSTROUTING jump, then
 * remove the chain, per address; everything already gone is fine (DEL-3). With no
 * address known (the link or the netns already gone), the chain is removed in both
 * families, jumps included, so a late DEL still leaves nothing: the reference skips
 * teardown then and leaks the chain.
 */
export function iptMasqTeardown(ips: readonly IPNet[], net: string, cid: string): IptablesOp[] {
  const chain = formatChainName(net, cid);
  const comment = formatComment(net, cid);
  const ops: IptablesOp[] = [];
  for (const ipn of ips) {
    const family = familyOf(ipn);
    ops.push({
      op: "ipt.rule.delete",
      family,
      table: TABLE,
      chain: "POSTROUTING",
      rule: iptMasqJump(ipn, chain, comment),
      // What ADD wrote (and the reference since v0.8): DEL may delete it unread.
      present: true,
    });
    // The older form is rare: unmarked, a copy of it fails the read-free -X and DEL reads.
    ops.push({
      op: "ipt.rule.delete",
      family,
      table: TABLE,
      chain: "POSTROUTING",
      rule: iptMasqLegacyJump(ipn, chain, comment),
    });
  }
  const families: Family[] = ips.length === 0 ? [4, 6] : [...new Set(ips.map(familyOf))];
  // With the addresses known, ADD made the chain in exactly their families (read-free DEL).
  for (const family of families)
    ops.push({ op: "ipt.chain.remove", family, table: TABLE, chain, ...(ips.length > 0 && { present: true }) });
  return ops;
}
