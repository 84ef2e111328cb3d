/**
 * IPAM pool usage per range for `/metrics` (issue 11 item 2): for every host-local range of
 * the default network, how many addresses it can give (`size`) and how many are reserved
 * (`allocated`). Read cheaply from the store itself: one `readdir` of
 * `<dataDir>/<network>/` per scrape, whose reservation files are named by their address
 * (SPEC.md 8.3), so a reservation the reference host-local made counts as well.
 * Ranges given per call (the `ipRanges` capability) are not the network's and not counted.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { NetworkConfigList } from "@tscni/config";
import {
  type IP,
  compareIP,
  formatIP,
  lastAddress,
  networkAddress,
  nextIP,
  parseCIDR,
  parseIP,
  prevIP,
} from "@tscni/spec/ipnet";
import * as v from "valibot";

/** Where host-local keeps its reservations when `dataDir` is not set (SPEC.md 8.3). */
const DEFAULT_DATA_DIR = "/var/lib/cni/networks";

/** One range's usage. */
export interface RangeUsage {
  readonly network: string;
  /** The subnet, or `start-end` when the range narrows it. */
  readonly range: string;
  readonly allocated: number;
  readonly size: number;
}

const RangeSchema = v.looseObject({
  subnet: v.string(),
  rangeStart: v.optional(v.string()),
  rangeEnd: v.optional(v.string()),
  gateway: v.optional(v.string()),
});
const HostLocalSchema = v.looseObject({
  type: v.literal("host-local"),
  dataDir: v.optional(v.string()),
  ranges: v.optional(v.array(v.array(RangeSchema))),
  // The legacy single range at the top of `ipam` (host-local's `subnet`, `rangeStart`, ...).
  subnet: v.optional(v.string()),
  rangeStart: v.optional(v.string()),
  rangeEnd: v.optional(v.string()),
  gateway: v.optional(v.string()),
});

interface Bounds {
  label: string;
  start: IP;
  end: IP;
  size: number;
}

/**
 * A range's first and last allocatable address as host-local canonicalises them (the
 * subnet's second address to its last, less the IPv4 broadcast) and its size without the
 * gateway, which is never handed out. Undefined for a range host-local would refuse.
 */
function bounds(r: v.InferOutput<typeof RangeSchema>): Bounds | undefined {
  const subnet = parseCIDR(r.subnet);
  if (subnet === undefined) return undefined;
  const net = networkAddress(subnet);
  const last = lastAddress(subnet);
  const start = r.rangeStart !== undefined ? parseIP(r.rangeStart) : nextIP(net);
  const end = r.rangeEnd !== undefined ? parseIP(r.rangeEnd) : net.family === 4 ? prevIP(last) : last;
  if (start === undefined || end === undefined || start.family !== net.family || compareIP(start, end) > 0)
    return undefined;
  const gateway = r.gateway !== undefined ? parseIP(r.gateway) : nextIP(net);
  const gatewayInside = gateway !== undefined && compareIP(gateway, start) >= 0 && compareIP(gateway, end) <= 0;
  const size = Number(end.value - start.value + 1n) - (gatewayInside ? 1 : 0);
  const prefix = `${formatIP(net)}/${subnet.prefix}`;
  const label = r.rangeStart === undefined && r.rangeEnd === undefined ? prefix : `${formatIP(start)}-${formatIP(end)}`;
  return { label, start, end, size };
}

/** The addresses reserved in a store directory (its files named by an address); none when it does not exist yet. */
function reserved(storeDir: string): IP[] {
  let names: string[];
  try {
    names = readdirSync(storeDir);
  } catch {
    return [];
  }
  const out: IP[] = [];
  for (const name of names) {
    const ip = parseIP(name);
    if (ip !== undefined) out.push(ip);
  }
  return out;
}

/**
 * The usage of every host-local range of `list`'s plugins (the plugin's own `ipam`).
 *
 * @example poolUsage(manager.defaultNetwork.list) // [{ network: "pods", range: "10.1.0.0/24", allocated: 3, size: 253 }]
 */
export function poolUsage(list: NetworkConfigList): RangeUsage[] {
  const out: RangeUsage[] = [];
  const seen = new Set<string>();
  for (const plugin of list.plugins) {
    const parsed = v.safeParse(HostLocalSchema, plugin.network.ipam);
    if (!parsed.success) continue;
    const ipam = parsed.output;
    const sets =
      ipam.ranges ??
      (ipam.subnet !== undefined
        ? [[{ subnet: ipam.subnet, rangeStart: ipam.rangeStart, rangeEnd: ipam.rangeEnd, gateway: ipam.gateway }]]
        : []);
    const dataDir = ipam.dataDir !== undefined && ipam.dataDir !== "" ? ipam.dataDir : DEFAULT_DATA_DIR;
    const addresses = reserved(join(dataDir, list.name));
    for (const set of sets) {
      for (const r of set) {
        const b = bounds(r);
        if (b === undefined || seen.has(`${dataDir}\0${b.label}`)) continue;
        seen.add(`${dataDir}\0${b.label}`);
        const allocated = addresses.filter((ip) => compareIP(ip, b.start) >= 0 && compareIP(ip, b.end) <= 0).length;
        out.push({ network: list.name, range: b.label, allocated, size: b.size });
      }
    }
  }
  return out;
}
