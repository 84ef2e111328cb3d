/**
 * `sysctl.set` and sysctl reads. Side effects modelled: `net.ipv4.ip_forward` is the same
 * value as `net.ipv4.conf.all.forwarding`; writing `all.forwarding` (either family) also
 * writes `default` and every interface, as the kernel does; `disable_ipv6=1` flushes the
 * interface's IPv6 addresses and routes, and `0` brings them back on an up link
 * (the link-local address through addrconf, `::1` on `lo`).
 */
import { KernelError, type SysctlSet } from "../index.ts";
import { onLinkUp } from "./connected.ts";
import { findLink, type Link, type NsState } from "./state.ts";
import { parseSysctlKey } from "./sysctl-store.ts";

/** The value of a dotted key in a namespace, or undefined when the key does not exist. */
export function readSysctl(ns: NsState, key: string): string | undefined {
  const parsed = parseSysctlKey(key);
  if (!parsed) return undefined;
  if (parsed.kind === "ns")
    return ns.sysctls.get(parsed.key === "net.ipv4.ip_forward" ? "net.ipv4.conf.all.forwarding" : parsed.key);
  const link = findLink(ns, parsed.ifname);
  return link ? ns.ifSysctls.get(link.index)?.get(`${parsed.family}.${parsed.leaf}`) : undefined;
}

function setIfValue(ns: NsState, link: Link, family: "ipv4" | "ipv6", leaf: string, value: string): void {
  const table = ns.ifSysctls.get(link.index);
  if (!table) return;
  const before = table.get(`${family}.${leaf}`);
  table.set(`${family}.${leaf}`, value);
  if (family !== "ipv6" || leaf !== "disable_ipv6" || before === value) return;
  if (value !== "0") {
    ns.routes = ns.routes.filter((r) => !(r.dev === link.index && r.dst.ip.family === 6));
    ns.addrs = ns.addrs.filter((a) => !(a.link === link.index && a.cidr.ip.family === 6));
    link.addrconfDone = false;
  } else if (link.up) {
    onLinkUp(ns, link);
  }
}

/** Applies one `sysctl.set`; unknown keys are `not-found`, non-integer values `invalid`. */
export function setSysctl(ns: NsState, op: SysctlSet): void {
  const parsed = parseSysctlKey(op.key);
  if (!parsed) throw new KernelError("not-found", `sysctl "${op.key}" not found in netns "${ns.path}"`);
  if (!/^-?\d+$/.test(op.value.trim())) {
    throw new KernelError("invalid", `invalid value "${op.value}" for sysctl "${op.key}"`);
  }
  const value = op.value.trim();
  if (parsed.kind === "if") {
    const link = findLink(ns, parsed.ifname);
    if (!link) throw new KernelError("not-found", `sysctl "${op.key}" not found in netns "${ns.path}"`);
    setIfValue(ns, link, parsed.family, parsed.leaf, value);
    return;
  }
  const key = parsed.key === "net.ipv4.ip_forward" ? "net.ipv4.conf.all.forwarding" : parsed.key;
  ns.sysctls.set(key, value);
  const m = /^net\.(ipv4|ipv6)\.conf\.all\.(forwarding|disable_ipv6)$/.exec(key);
  if (!m) return;
  const family = m[1] as "ipv4" | "ipv6";
  const leaf = m[2] as string;
  if (key === "net.ipv4.conf.all.forwarding") ns.sysctls.set("net.ipv4.ip_forward", value);
  ns.sysctls.set(`net.${family}.conf.default.${leaf}`, value);
  for (const link of ns.links.values()) setIfValue(ns, link, family, leaf, value);
}
