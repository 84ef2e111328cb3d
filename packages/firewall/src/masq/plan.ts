/**
 * ipMasq as transactions (SPEC H-3): which backend, and what setting up or tearing down
 * one attachment's masquerading amounts to, computed before anything is touched.
 */
import type { IPNet } from "@tscni/spec/ipnet";
import type { FirewallBackend } from "../firewall.ts";
import type { FirewallTx } from "../ops.ts";
import { iptMasqSetup, iptMasqTeardown } from "./iptables.ts";
import { nftMasqSetup, nftMasqTeardown } from "./nftables.ts";

/** The two ways the reference masquerades (`ipMasqBackend`). */
export type MasqBackend = FirewallBackend;

/** Both backends, in the order teardown tries them (iptables first, as the reference). */
export const MASQ_BACKENDS: readonly MasqBackend[] = ["iptables", "nftables"];

/** True for a known `ipMasqBackend` value. */
export function isMasqBackend(value: string): value is MasqBackend {
  return value === "iptables" || value === "nftables";
}

/** The reference's message for any other value, `""` included (a Go `*string` set to ""). */
export function unknownMasqBackend(value: string): string {
  return `unknown ipmasq backend ${JSON.stringify(value)}`;
}

/**
 * The transaction that masquerades traffic from `ips` leaving their subnets, for the
 * attachment (`net`, `ifName`, `cid`) on `backend`.
 *
 * @example planMasqSetup("iptables", [parseCIDR("198.18.0.5/24")!], "net", "eth0", "c1")
 */
export function planMasqSetup(
  backend: MasqBackend,
  ips: readonly IPNet[],
  net: string,
  ifName: string,
  cid: string,
): FirewallTx {
  return backend === "iptables" ? iptMasqSetup(ips, net, cid) : nftMasqSetup(ips, net, ifName, cid);
}

/**
 * The transaction that removes what {@link planMasqSetup} made on `backend`, and what
 * the reference made for the same attachment; every part already gone is fine (DEL-3).
 */
export function planMasqTeardown(
  backend: MasqBackend,
  ips: readonly IPNet[],
  net: string,
  ifName: string,
  cid: string,
): FirewallTx {
  return backend === "iptables" ? iptMasqTeardown(ips, net, cid) : nftMasqTeardown(net, ifName, cid);
}
