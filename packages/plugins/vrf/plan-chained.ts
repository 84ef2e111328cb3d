/**
 * vrf in `cni plan`: its ADD (attach.ts) on the interface plugin's planned result. The
 * VRF is looked up in the namespace now (as the interface plugins' plans read it) or
 * among the planned ops; a new one gets the configured table or the first free one from
 * 1. The interface is the planned one (shared/planned-link.ts): enslaving it flushes its
 * IPv6 addresses (keep_addr_on_down=0, the kernel's default), which come back, and its
 * main-table routes of scope global, kernel-made ones included, follow it into the VRF's
 * table. Refused as ADD refuses (a VRF with another table). Applies nothing.
 */
import type { Kernel, KernelOp, LinkInfo } from "@tscni/kernel";
import type { CmdArgs } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { parsePrefix } from "@tscni/spec/ipnet";
import { plannedLink } from "../shared/planned-link.ts";
import { routeAgain } from "../shared/route-copy.ts";
import { findVrf, freeVrfTable } from "./attach.ts";
import { parseVrfConfig } from "./config.ts";

/** A VRF the ops make, as a read would list it. */
const vrfOf = (op: KernelOp, ns: string): LinkInfo[] =>
  op.op === "vrf.add" && op.ns === ns
    ? [
        {
          index: 0,
          name: op.name,
          kind: "vrf",
          mac: "",
          mtu: 0,
          up: false,
          operState: "DOWN",
          promisc: false,
          vrfTable: op.table,
        },
      ]
    : [];

/** What ADD would do with the interface `ops` plan. Reads the namespace's links and a sysctl; applies nothing. */
export async function planChained(
  a: CmdArgs,
  _prev: Result100,
  ops: readonly KernelOp[],
  ports: { kernel: Kernel },
): Promise<{ firewall: []; notes: string[]; ops: KernelOp[] }> {
  const conf = parseVrfConfig({ ...a.config, prevResult: undefined });
  const k = ports.kernel;
  const ns = a.netns;
  const planned = ops.flatMap((o) => vrfOf(o, ns));
  const fail = (m: string): Error => new Error(`cmdAdd failed: ${m}`);
  let vrf: LinkInfo | undefined = planned.find((l) => l.name === conf.vrfName);
  try {
    vrf ??= await findVrf(k, ns, conf.vrfName);
  } catch (e) {
    throw fail(e instanceof Error ? e.message : String(e));
  }
  if (vrf !== undefined && conf.table !== 0 && vrf.vrfTable !== conf.table)
    throw fail(`VRF ${conf.vrfName} already exist with different routing table ${vrf.vrfTable}`);
  const out: KernelOp[] = [];
  let table = vrf?.vrfTable ?? 0;
  if (vrf === undefined) {
    table = conf.table !== 0 ? conf.table : freeVrfTable([...(await k.links(ns)), ...planned]);
    out.push({ op: "vrf.add", ns, name: conf.vrfName, table }, { op: "link.set", ns, name: conf.vrfName, up: true });
  }
  const link = plannedLink(ops, ns, a.ifName, (await k.sysctl(ns, "net.ipv6.conf.default.disable_ipv6")) === "0");
  if (!link.exists) throw fail(`could not get link by name ${a.ifName}`);
  out.push({ op: "link.set", ns, name: a.ifName, master: conf.vrfName });
  for (const cidr of link.cidrs) {
    const ip = parsePrefix(cidr)?.ip;
    // Global IPv6 addresses only: link-local ones come back by themselves.
    if (ip?.family === 6 && ip.value >> 118n !== 0x3fan)
      out.push({ op: "addr.add", ns, dev: a.ifName, cidr, nodad: true });
  }
  for (const r of link.routes) if (r.scope === "global") out.push(routeAgain(ns, r, table, true));
  return { firewall: [], notes: [], ops: out };
}
