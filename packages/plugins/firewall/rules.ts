/**
 * The firewall plugin's iptables rules, token for token as the reference writes them
 * (`plugins/meta/firewall/iptables.go`, `ingresspolicy.go`), in the order and spelling
 * `iptables-save` prints them, so a rule the reference made is found by its text and
 * ours is found by the reference's `iptables -C`.
 */
import type { Family, IptRule } from "@tscni/firewall";
import { formatIP, isIPv4, parseCIDR, type Result100 } from "@tscni/spec";

/** The chain every forwarded packet visits (jumped from FORWARD). */
export const FORWARD_CHAIN = "CNI-FORWARD";
/** The isolation chains of `ingressPolicy` same-bridge / isolated (names fixed upstream). */
export const STAGE1_CHAIN = "CNI-ISOLATION-STAGE-1";
/** The second isolation stage: drops what enters another isolated bridge. */
export const STAGE2_CHAIN = "CNI-ISOLATION-STAGE-2";

/** One container address as the reference's `ipString`: the IP with `/32` or `/128`, and its family. */
export interface HostIp {
  family: Family;
  cidr: string;
}

/**
 * The result's addresses as host CIDRs (`ipString`): Go prints an IPv4-mapped address as
 * IPv4 and `To4()` decides the family, so `::ffff:198.18.0.5/120` is `198.18.0.5/32`.
 */
export function hostIps(result: Result100 | undefined): HostIp[] {
  const out: HostIp[] = [];
  for (const ip of result?.ips ?? []) {
    const p = parseCIDR(ip.address);
    if (p === undefined) continue;
    const v4 = isIPv4(p.ip);
    out.push({ family: v4 ? 4 : 6, cidr: `${formatIP(p.ip)}/${v4 ? 32 : 128}` });
  }
  return out;
}

/** `getPrivChainRules`: replies to the container accepted, everything it sends accepted. */
export function containerRules(cidr: string): IptRule[] {
  return [
    ["-d", cidr, "-m", "conntrack", "--ctstate", "RELATED,ESTABLISHED", "-j", "ACCEPT"],
    ["-s", cidr, "-j", "ACCEPT"],
  ];
}

/** `generateFilterRule`: FORWARD's jump to CNI-FORWARD. */
export function forwardJumpRule(): IptRule {
  return ["-m", "comment", "--comment", "CNI firewall plugin rules", "-j", FORWARD_CHAIN];
}

/** `generateAdminRule`: CNI-FORWARD's first rule, the jump to the admin chain. */
export function adminJumpRule(adminChain: string): IptRule {
  return ["-m", "comment", "--comment", "CNI firewall plugin admin overrides", "-j", adminChain];
}

/** The isolation rules of one bridge, by chain, as ingresspolicy.go's `setupIsolationChains`. */
export interface IsolationRules {
  /** FORWARD's jump to stage 1, inserted first (before the CNI-FORWARD jump). */
  forwardJump: IptRule;
  /** Stage 1 rules inserted first, in insertion order (the later one ends up first). */
  stage1Insert: IptRule[];
  stage1Return: IptRule;
  stage2Drop: IptRule;
  stage2Return: IptRule;
}

const DEFAULT_COMMENT = "CNI firewall plugin rules (ingressPolicy: same-bridge|isolated)";

/**
 * ingresspolicy.go's rules for `bridge`: out of the bridge to elsewhere goes to stage 2,
 * where anything entering another isolated bridge is dropped; `isolated` also drops
 * bridge-to-same-bridge traffic. iptables-save prints matches before the comment and the
 * target last, whatever order the reference passed them in.
 */
export function isolationRules(bridge: string, isolated: boolean): IsolationRules {
  const policy = `CNI firewall plugin rules (ingressPolicy: ${isolated ? "isolated" : "same-bridge"})`;
  const comment = (c: string): string[] => ["-m", "comment", "--comment", c];
  const stage1Insert: IptRule[] = [["-i", bridge, "!", "-o", bridge, ...comment(policy), "-j", STAGE2_CHAIN]];
  if (isolated) stage1Insert.push(["-i", bridge, "-o", bridge, ...comment(policy), "-j", "DROP"]);
  return {
    forwardJump: [...comment(DEFAULT_COMMENT), "-j", STAGE1_CHAIN],
    stage1Insert,
    stage1Return: [...comment(DEFAULT_COMMENT), "-j", "RETURN"],
    stage2Drop: ["-o", bridge, ...comment(DEFAULT_COMMENT), "-j", "DROP"],
    stage2Return: [...comment(DEFAULT_COMMENT), "-j", "RETURN"],
  };
}

/** Go's `%v` of a `[]string`, as the reference's CHECK messages print a rule. */
export function goRule(rule: IptRule): string {
  return `[${rule.join(" ")}]`;
}
