/**
 * Sysctl keys the fake kernel knows, their defaults in a fresh namespace, and how a
 * dotted key maps onto the model. Namespace-wide keys live in `NsState.sysctls`;
 * per-interface keys (`net.ipv4.conf.<if>.<leaf>`, `net.ipv6.conf.<if>.<leaf>`) live
 * with their link and die with it. `all` and `default` are namespace-wide.
 * Interface names containing dots are written with `/` (`net.ipv4.conf.eth0/5.arp_notify`),
 * as sysctl(8) does; the dotted form is accepted too.
 */
import type { NsState } from "./state.ts";

/** Per-interface leaves and their defaults, by family. */
export const IF_LEAVES: Readonly<Record<"ipv4" | "ipv6", Readonly<Record<string, string>>>> = {
  ipv4: {
    forwarding: "0",
    arp_notify: "0",
    route_localnet: "0",
    proxy_arp: "0",
    rp_filter: "0",
    promote_secondaries: "0",
    accept_local: "0",
    send_redirects: "1",
  },
  ipv6: {
    forwarding: "0",
    accept_ra: "1",
    accept_dad: "1",
    enhanced_dad: "1",
    disable_ipv6: "0",
    keep_addr_on_down: "0",
    autoconf: "1",
    addr_gen_mode: "0",
    ndisc_notify: "0",
  },
};

/** Defaults of the namespace-wide keys of a fresh namespace. */
export function defaultNsSysctls(): Map<string, string> {
  const out = new Map<string, string>([["net.ipv4.ip_forward", "0"]]);
  for (const fam of ["ipv4", "ipv6"] as const) {
    for (const scope of ["all", "default"]) {
      for (const [leaf, value] of Object.entries(IF_LEAVES[fam])) out.set(`net.${fam}.conf.${scope}.${leaf}`, value);
    }
  }
  return out;
}

/** A key resolved against the model. */
export type SysctlKey =
  | { kind: "ns"; key: string }
  | { kind: "if"; family: "ipv4" | "ipv6"; ifname: string; leaf: string };

/** Parses a dotted key into a namespace-wide or per-interface key, or undefined when unknown. */
export function parseSysctlKey(raw: string): SysctlKey | undefined {
  const key = raw.replaceAll("/", ".");
  if (key === "net.ipv4.ip_forward") return { kind: "ns", key };
  const m = /^net\.(ipv4|ipv6)\.conf\.(.+)\.([a-z0-9_]+)$/.exec(raw);
  if (!m) return undefined;
  const family = m[1] as "ipv4" | "ipv6";
  const leaf = m[3] ?? "";
  if (!(leaf in IF_LEAVES[family])) return undefined;
  const ifname = (m[2] ?? "").replaceAll("/", ".");
  if (ifname === "all" || ifname === "default") return { kind: "ns", key: `net.${family}.conf.${ifname}.${leaf}` };
  return { kind: "if", family, ifname, leaf };
}

/** The per-interface sysctls of a new link, inherited from `default`. */
export function newIfSysctls(ns: NsState): Map<string, string> {
  const out = new Map<string, string>();
  for (const fam of ["ipv4", "ipv6"] as const) {
    for (const [leaf, value] of Object.entries(IF_LEAVES[fam])) {
      out.set(`${fam}.${leaf}`, ns.sysctls.get(`net.${fam}.conf.default.${leaf}`) ?? value);
    }
  }
  return out;
}

/** A per-interface value by link index. */
export function ifSysctl(ns: NsState, index: number, family: "ipv4" | "ipv6", leaf: string): string | undefined {
  return ns.ifSysctls.get(index)?.get(`${family}.${leaf}`);
}
