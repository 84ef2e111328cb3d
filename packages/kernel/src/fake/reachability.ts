/**
 * Can a packet from one namespace reach an address, and can the answer come back?
 * The model: the sender picks a route by longest prefix match (then lowest metric) in its
 * main table; the next hop (the gateway, or the destination for a gateway-less route) must
 * be an L2 neighbour on the route's device (neighbours.ts) owning that address (IPv4 answers
 * ARP for any local address of the namespace, IPv6 NDP only for the receiving interface's);
 * a namespace that is not the destination forwards only with `ip_forward=1` /
 * `net.ipv6.conf.all.forwarding=1`; then the destination must route back to the source
 * address the sender chose. Simplifications: no firewall, rp_filter, policy routing,
 * other tables, MTU or neighbour tables; source selection is the route's `src`, else the
 * first global address of the device, else of the namespace.
 */
import type { Netns, RouteInfo } from "../index.ts";
import type { FakeKernel } from "./fake-kernel.ts";
import { type IP, contains, formatAddr, ipEqual, parseAddr } from "@tscni/spec/ipnet";
import { parseCidr } from "./ip.ts";
import { l2Neighbours, type NetView } from "./neighbours.ts";
import type { NamespaceSnapshot } from "./snapshot.ts";

/** The outcome of a trace: the namespaces visited, and why it failed when it did. */
export type Trace = { ok: true; hops: Netns[] } | { ok: false; hops: Netns[]; reason: string };

const MAX_HOPS = 64;

function isLocal(snap: NamespaceSnapshot, ip: IP): boolean {
  return snap.addresses.some((a) => {
    const link = snap.links.find((l) => l.name === a.dev);
    const cidr = parseCidr(a.cidr);
    if (!link?.up || !cidr) return false;
    return ipEqual(cidr.ip, ip) || (link.kind === "loopback" && ip.family === 4 && contains(cidr, ip));
  });
}

function lookup(snap: NamespaceSnapshot, ip: IP): RouteInfo | undefined {
  const matches = snap.routes
    .filter((r) => r.table === undefined && contains(parseCidr(r.dst)!, ip))
    .map((r) => ({ r, prefix: parseCidr(r.dst)!.prefix }));
  matches.sort((a, b) => b.prefix - a.prefix || (a.r.metric ?? 0) - (b.r.metric ?? 0));
  return matches[0]?.r;
}

function pickSource(snap: NamespaceSnapshot, route: RouteInfo, dst: IP): IP | undefined {
  if (route.src) return parseAddr(route.src);
  const wantLinkLocal = dst.family === 6 && formatAddr(dst).startsWith("fe80:");
  const usable = snap.addresses
    .filter((a) => a.family === dst.family && (wantLinkLocal ? a.scope === "link" : a.scope === "global"))
    .filter((a) => snap.links.find((l) => l.name === a.dev)?.up);
  const pick = usable.find((a) => a.dev === route.dev) ?? (wantLinkLocal ? undefined : usable[0]);
  return pick && parseCidr(pick.cidr)?.ip;
}

function forwards(snap: NamespaceSnapshot, family: 4 | 6): boolean {
  return snap.sysctls[family === 4 ? "net.ipv4.conf.all.forwarding" : "net.ipv6.conf.all.forwarding"] === "1";
}

/** One direction: where a packet to `dst` sent from `start` ends up, and the source address chosen. */
function deliver(view: NetView, start: Netns, dst: IP): { trace: Trace; src?: IP; at?: Netns } {
  const hops: Netns[] = [start];
  const fail = (reason: string) => ({ trace: { ok: false as const, hops, reason } });
  let ns = start;
  let src: IP | undefined;
  for (let ttl = 0; ttl < MAX_HOPS; ttl++) {
    const snap = view.snapshot(ns);
    if (!snap) return fail(`netns "${ns}" is gone`);
    if (isLocal(snap, dst)) return { trace: { ok: true, hops }, at: ns, ...(src && { src }) };
    if (ns !== start && !forwards(snap, dst.family)) return fail(`netns "${ns}" does not forward IPv${dst.family}`);
    const route = lookup(snap, dst);
    if (!route?.dev) return fail(`no route to "${formatAddr(dst)}" in netns "${ns}"`);
    const dev = snap.links.find((l) => l.name === route.dev);
    if (!dev || !(dev.operState === "UP" || dev.operState === "UNKNOWN"))
      return fail(`device "${route.dev}" in netns "${ns}" is down`);
    if (ns === start) {
      src = pickSource(snap, route, dst);
      if (!src) return fail(`no source address for "${formatAddr(dst)}" in netns "${ns}"`);
    }
    const nh = route.gw ? parseAddr(route.gw)! : dst;
    const neighbours = l2Neighbours(view, ns, route.dev);
    const owner =
      neighbours.find((e) =>
        view.snapshot(e.ns)?.addresses.some((a) => a.dev === e.link.name && ipEqual(parseCidr(a.cidr)!.ip, nh)),
      ) ?? (nh.family === 4 ? neighbours.find((e) => isLocal(view.snapshot(e.ns)!, nh)) : undefined);
    if (!owner) return fail(`no neighbour "${formatAddr(nh)}" on "${route.dev}" in netns "${ns}"`);
    ns = owner.ns;
    hops.push(ns);
  }
  return fail(`more than ${MAX_HOPS} hops`);
}

/** A view of the fake kernel's namespaces (snapshots taken lazily, once each). */
export function viewOf(kernel: FakeKernel): NetView {
  const cache = new Map<Netns, NamespaceSnapshot | undefined>();
  const known = new Set(kernel.namespaces());
  return {
    snapshot(ns) {
      if (!cache.has(ns)) cache.set(ns, known.has(ns) ? kernel.snapshot(ns) : undefined);
      return cache.get(ns);
    },
    peerOf: (ns, name) => kernel.peerOf(ns, name),
  };
}

/** Traces a packet from `fromNs` to `toAddress` and its answer back. */
export function trace(kernel: FakeKernel, fromNs: Netns, toAddress: string): Trace {
  const dst = parseAddr(toAddress);
  if (!dst) return { ok: false, hops: [fromNs], reason: `invalid address "${toAddress}"` };
  const view = viewOf(kernel);
  const there = deliver(view, fromNs, dst);
  if (!there.trace.ok || there.at === fromNs || !there.src || !there.at) return there.trace;
  const back = deliver(view, there.at, there.src);
  if (!back.trace.ok) return { ...back.trace, reason: `no way back: ${back.trace.reason}` };
  if (back.at !== fromNs) return { ok: false, hops: back.trace.hops, reason: `the answer goes to netns "${back.at}"` };
  return there.trace;
}

/** True when `fromNs` can reach `toAddress` and the answer can come back. */
export function canReach(kernel: FakeKernel, fromNs: Netns, toAddress: string): boolean {
  return trace(kernel, fromNs, toAddress).ok;
}
