/**
 * Structural invariants of the fake kernel, checked after every batch. A violation is a
 * bug in the model (not a kernel error), so it is reported as a plain Error.
 */
import { contains, ipEqual, network } from "@tscni/spec/ipnet";
import type { NsState, World } from "./state.ts";
import { lowerProblems } from "./fake-sublinks.ts";

function nsProblems(world: World, ns: NsState): string[] {
  const out: string[] = [];
  const where = `in netns "${ns.path}"`;
  const names = new Set<string>();
  for (const [index, link] of ns.links) {
    if (index !== link.index || index > ns.lastIndex)
      out.push(`link "${link.name}" has a bad index ${link.index} ${where}`);
    if (names.has(link.name)) out.push(`link name "${link.name}" is not unique ${where}`);
    names.add(link.name);
    if (new TextEncoder().encode(link.name).length > 15) out.push(`link name "${link.name}" is longer than 15 bytes`);
    if (!ns.ifSysctls.has(index)) out.push(`link "${link.name}" has no per-interface sysctls ${where}`);
    if (link.kind === "veth") {
      const peer = link.peer && world.namespaces.get(link.peer.ns)?.links.get(link.peer.index);
      if (!peer || peer.peer?.ns !== ns.path || peer.peer.index !== index)
        out.push(`veth "${link.name}" has no live peer ${where}`);
    }
    if (link.master !== undefined && !["bridge", "vrf"].includes(ns.links.get(link.master)?.kind ?? "")) {
      out.push(`master of "${link.name}" is not a bridge ${where}`);
    }
    out.push(...lowerProblems(world, ns, link));
    if (link.kind === "vlan" && link.lower === undefined && (link.parent === undefined || !ns.links.has(link.parent))) {
      out.push(`vlan "${link.name}" has no parent ${where}`);
    }
  }
  for (const index of ns.ifSysctls.keys())
    if (!ns.links.has(index)) out.push(`sysctls of a missing link ${index} ${where}`);
  for (const a of ns.addrs) if (!ns.links.has(a.link)) out.push(`address on a missing link ${a.link} ${where}`);
  for (const r of ns.routes) {
    const link = ns.links.get(r.dev);
    if (!link) out.push(`route through a missing link ${r.dev} ${where}`);
    else if (!link.up) out.push(`route through "${link.name}" which is down ${where}`);
    // Routes sbr moved to a table of their own keep `proto kernel` without being connected routes there.
    if (
      r.protocol !== "kernel" ||
      (r.table !== undefined && ![...ns.links.values()].some((l) => l.kind === "vrf" && l.vrfTable === r.table)) ||
      (r.dst.ip.family === 6 && r.dst.prefix === 64 && r.dst.ip.value === 0xfe80n << 112n)
    )
      continue;
    const owner = ns.addrs.some(
      (a) =>
        a.link === r.dev && !a.noprefixroute && a.cidr.prefix === r.dst.prefix && ipEqual(network(a.cidr).ip, r.dst.ip),
    );
    if (!owner) out.push(`connected route to "${r.dst.ip.value}/${r.dst.prefix}" has no address ${where}`);
    if (r.src && !ns.addrs.some((a) => a.link === r.dev && ipEqual(a.cidr.ip, r.src!) && contains(r.dst, a.cidr.ip))) {
      out.push(`connected route has a source that is not its address ${where}`);
    }
  }
  return out;
}

/** Every broken invariant of the world, one message each; `[]` when all hold. */
export function invariantProblems(world: World): string[] {
  return [...world.namespaces.values()].flatMap((ns) => nsProblems(world, ns));
}

/** Throws when an invariant is broken. */
export function assertInvariants(world: World): void {
  const problems = invariantProblems(world);
  if (problems.length > 0) throw new Error(`fake kernel invariant broken: ${problems.join("; ")}`);
}
