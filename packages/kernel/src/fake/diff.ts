/** Human-readable differences between two namespace snapshots. */
import type { RouteInfo } from "../index.ts";
import type { NamespaceSnapshot } from "./snapshot.ts";

/** A route as one iproute2-like line (its identity in diffs). */
export function routeLine(r: RouteInfo): string {
  const parts = [r.dst];
  if (r.gw) parts.push(`via ${r.gw}`);
  if (r.dev) parts.push(`dev ${r.dev}`);
  if (r.table !== undefined) parts.push(`table ${r.table}`);
  if (r.protocol) parts.push(`proto ${r.protocol}`);
  parts.push(`scope ${r.scope}`);
  if (r.src) parts.push(`src ${r.src}`);
  if (r.metric !== undefined) parts.push(`metric ${r.metric}`);
  if (r.mtu !== undefined) parts.push(`mtu ${r.mtu}`);
  if (r.advmss !== undefined) parts.push(`advmss ${r.advmss}`);
  return parts.join(" ");
}

function keyed<T>(what: string, a: T[], b: T[], key: (x: T) => string, out: string[]): void {
  const left = new Map(a.map((x) => [key(x), x]));
  const right = new Map(b.map((x) => [key(x), x]));
  for (const [k, x] of left) {
    const y = right.get(k);
    if (y === undefined) {
      out.push(`${what} "${k}": only in a`);
      continue;
    }
    const fields = new Set([...Object.keys(x as object), ...Object.keys(y as object)]);
    for (const f of fields) {
      const xv = JSON.stringify((x as Record<string, unknown>)[f]);
      const yv = JSON.stringify((y as Record<string, unknown>)[f]);
      if (xv !== yv) out.push(`${what} "${k}": ${f} ${xv ?? "unset"} -> ${yv ?? "unset"}`);
    }
  }
  for (const k of right.keys()) if (!left.has(k)) out.push(`${what} "${k}": only in b`);
}

/** Every difference between `a` and `b`, one line each; `[]` when they are equal. */
export function diffSnapshots(a: NamespaceSnapshot, b: NamespaceSnapshot): string[] {
  const out: string[] = [];
  keyed("link", a.links, b.links, (l) => l.name, out);
  keyed("address", a.addresses, b.addresses, (x) => `${x.cidr} dev ${x.dev}`, out);
  keyed("route", a.routes, b.routes, routeLine, out);
  for (const key of new Set([...Object.keys(a.sysctls), ...Object.keys(b.sysctls)])) {
    const [x, y] = [a.sysctls[key], b.sysctls[key]];
    if (x === y) continue;
    if (x === undefined) out.push(`sysctl "${key}": only in b`);
    else if (y === undefined) out.push(`sysctl "${key}": only in a`);
    else out.push(`sysctl "${key}": "${x}" -> "${y}"`);
  }
  const vlans = (s: NamespaceSnapshot) =>
    Object.entries(s.bridgeVlans).flatMap(([dev, list]) => list.map((v) => ({ dev, ...v })));
  keyed("bridge vlan", vlans(a), vlans(b), (v) => `${v.vid} dev ${v.dev}`, out);
  keyed("rule", a.rules, b.rules, (r) => JSON.stringify(r), out);
  return out;
}
