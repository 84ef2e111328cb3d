/**
 * host-local's configuration (`allocator.LoadIPAMConfig`): the requested IPs merged from
 * three sources, the range sets in their final order, canonicalised and checked.
 */
import type { Route } from "@tscni/spec";
import { versionAtLeast } from "@tscni/spec";
import { type IP, formatIP, parseCIDR, parseIP } from "@tscni/spec/ipnet";
import { type Outcome, fail, ok } from "./outcome.ts";
import type { RangeInput } from "./range.ts";
import { type RangeSet, canonicalizeRangeSet, rangeSetFamily, rangeSetsOverlap } from "./range-set.ts";
import { parseNet } from "./schema.ts";

/** Where host-local keeps its reservations when `dataDir` is not set (§8.3). */
export const DEFAULT_DATA_DIR = "/var/lib/cni/networks";

/** The canonical host-local configuration. */
export interface IPAMConfig {
  /** The network name: the store is `<dataDir>/<name>/`. */
  readonly name: string;
  readonly cniVersion: string;
  readonly type: string;
  /** One address is allocated from each set, in this order. */
  readonly ranges: readonly RangeSet[];
  /** Copied into the result. */
  readonly routes: readonly Route[];
  readonly dataDir: string;
  /** A resolv.conf to turn into the result's `dns`; empty for none. */
  readonly resolvConf: string;
  /** Requested addresses: CNI_ARGS `IP`, then `args.cni.ips`, then `runtimeConfig.ips` (CA-2). */
  readonly requestedIPs: readonly IP[];
}

/**
 * Loads the config as the reference does. `envIP` is CNI_ARGS `IP=` already parsed by the
 * caller (CNI_ARGS belongs to the plugin framework). Final range order: the `ipRanges`
 * capability, then the legacy top-level range, then `ranges` (§8.3).
 *
 * @example loadIPAMConfig({ name: "n", ipam: { subnet: "198.18.0.0/24" } }) // ok
 */
export function loadIPAMConfig(config: unknown, envIP?: IP): Outcome<IPAMConfig> {
  const parsed = parseNet(config);
  if (!parsed.ok) return parsed;
  const n = parsed.value;
  const ipam = n.ipam;
  if (ipam === undefined || ipam === null) return fail("IPAM config missing 'ipam' key");

  // All three sources are merged; CNI_ARGS is not ignored when args.cni.ips is set (CA-2).
  const requestedIPs = [...(envIP === undefined ? [] : [envIP]), ...(n.args?.cni?.ips ?? []), ...n.runtimeConfig.ips];

  const inputs: (readonly RangeInput[])[] = n.runtimeConfig.ipRanges.map(cleanSet);
  if (ipam.subnet !== undefined && ipam.subnet !== null) {
    inputs.push([
      cleanRange({ subnet: ipam.subnet, rangeStart: ipam.rangeStart, rangeEnd: ipam.rangeEnd, gateway: ipam.gateway }),
    ]);
  }
  inputs.push(...ipam.ranges.map(cleanSet));
  if (inputs.length === 0) return fail("no IP ranges specified");

  const ranges: RangeSet[] = [];
  for (const [i, input] of inputs.entries()) {
    const set = canonicalizeRangeSet(input);
    if (!set.ok) return fail(`invalid range set ${i}: ${set.error}`);
    ranges.push(set.value);
  }
  const v4 = ranges.filter((s) => rangeSetFamily(s) === 4).length;
  // Spec 0.2.0 and below carry one address per family (VN-7).
  if ((v4 > 1 || ranges.length - v4 > 1) && !versionAtLeast(n.cniVersion, "0.3.0")) {
    return fail(`CNI version ${n.cniVersion} does not support more than 1 address per family`);
  }
  for (const [i, a] of ranges.entries()) {
    for (const [j, b] of ranges.entries()) {
      if (j > i && rangeSetsOverlap(a, b)) return fail(`range set ${i} overlaps with ${j}`);
    }
  }
  return ok({
    name: n.name,
    cniVersion: n.cniVersion,
    type: ipam.type,
    ranges,
    routes: ipam.routes.map(normalizeRoute),
    dataDir: ipam.dataDir === "" ? DEFAULT_DATA_DIR : ipam.dataDir,
    resolvConf: ipam.resolvConf,
    requestedIPs,
  });
}

/** Where a network's store lives: all GC and STATUS need when no ranges are at hand. */
export interface StoreLocation {
  readonly name: string;
  readonly dataDir: string;
}

/**
 * Reads only the network name and data dir. GC and STATUS get no `runtimeConfig` (CAP-2),
 * so a network whose ranges come only from the `ipRanges` capability has none there.
 */
export function loadStoreLocation(config: unknown): Outcome<StoreLocation> {
  const parsed = parseNet(config);
  if (!parsed.ok) return parsed;
  const ipam = parsed.value.ipam;
  if (ipam === undefined || ipam === null) return fail("IPAM config missing 'ipam' key");
  return ok({ name: parsed.value.name, dataDir: ipam.dataDir === "" ? DEFAULT_DATA_DIR : ipam.dataDir });
}

type RawRange = { [K in keyof RangeInput]: RangeInput[K] | null | undefined };

/** Drops unset bounds (JSON null, or "" which Go reads as an unset `net.IP`). */
function cleanRange(r: RawRange): RangeInput {
  return {
    subnet: r.subnet as RangeInput["subnet"],
    ...(r.rangeStart ? { rangeStart: r.rangeStart } : {}),
    ...(r.rangeEnd ? { rangeEnd: r.rangeEnd } : {}),
    ...(r.gateway ? { gateway: r.gateway } : {}),
  };
}

const cleanSet = (set: readonly RawRange[]): RangeInput[] => set.map(cleanRange);

/** Routes are kept as written, with `dst`/`gw` printed as Go prints them; `gw` stays absent when absent. */
function normalizeRoute(route: Record<string, unknown>): Route {
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(route)) if (val !== null && val !== undefined) out[k] = val;
  const dst = parseCIDR(String(route.dst));
  if (dst !== undefined) out.dst = `${formatIP(dst.ip)}/${dst.prefix}`;
  const gw = typeof route.gw === "string" && route.gw !== "" ? parseIP(route.gw) : undefined;
  if (gw !== undefined) out.gw = formatIP(gw);
  else delete out.gw;
  return out as unknown as Route;
}
