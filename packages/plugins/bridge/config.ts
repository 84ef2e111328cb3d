/**
 * The bridge plugin's configuration (SPEC.md §8.1): parsed from the stdin config and
 * CNI_ARGS with the reference's defaults and its exact error messages.
 */
import * as v from "valibot";
import { parseCniArgs } from "@tscni/skel";
import type { DNS } from "@tscni/spec";
import { masqBackendOf } from "../shared/masq.ts";
import {
  commonEntries,
  dnsOverride,
  goBool,
  goObject,
  goInt,
  goString,
  invalidConfig,
  orUndefined,
  parseWith,
} from "../shared/netconf.ts";

/** The bridge's config after defaults and validation. */
export interface BridgeConfig {
  cniVersion: string;
  name: string;
  /** The bridge to use or create; default `cni0`. */
  bridge: string;
  isGateway: boolean;
  isDefaultGateway: boolean;
  forceAddress: boolean;
  ipMasq: boolean;
  /** `ipMasqBackend` as given; undefined means auto (H-3). */
  ipMasqBackend: string | undefined;
  /** 0 means the kernel default. */
  mtu: number;
  hairpinMode: boolean;
  promiscMode: boolean;
  /** 0 means no VLAN. */
  vlan: number;
  /** The trunk's VLAN ids, sorted and distinct; undefined when no trunk is configured. */
  vlans: number[] | undefined;
  /** `vlanTrunk` was present at all (turns VLAN filtering on even when it lists nothing). */
  vlanTrunkSet: boolean;
  preserveDefaultVlan: boolean;
  macspoofchk: boolean;
  enabledad: boolean;
  disableContainerInterface: boolean;
  portIsolation: boolean;
  /** The container MAC from CNI_ARGS `MAC`, `args.cni.mac` or `runtimeConfig.mac` (last wins), as given. */
  mac: string | undefined;
  /** The IPAM plugin's type; empty means an L2-only network. */
  ipamType: string;
  /** The config's DNS when it sets anything; it replaces the IPAM DNS in the result. */
  dns: DNS | undefined;
}

const trunkItem = v.nullish(goObject({ minID: goInt, maxID: goInt, id: goInt }, "main.VlanTrunk"));

const Schema = v.looseObject(
  {
    ...commonEntries,
    bridge: goString,
    isGateway: goBool,
    isDefaultGateway: goBool,
    forceAddress: goBool,
    hairpinMode: goBool,
    promiscMode: goBool,
    vlan: goInt,
    vlanTrunk: v.nullish(v.array(trunkItem, "[]*main.VlanTrunk")),
    preserveDefaultVlan: goBool,
    macspoofchk: goBool,
    enabledad: goBool,
    disableContainerInterface: goBool,
    portIsolation: goBool,
    args: v.nullish(
      goObject(
        { cni: v.nullish(goObject({ mac: goString }, "main.BridgeArgs")) },
        'struct { Cni main.BridgeArgs "json:\\"cni,omitempty\\"" }',
      ),
    ),
    runtimeConfig: v.nullish(goObject({ mac: goString }, 'struct { Mac string "json:\\"mac,omitempty\\"" }')),
  },
  "main.NetConf",
);

type Trunk = v.InferOutput<typeof trunkItem>;

/** The trunk's VLAN ids, as the reference's `collectVlanTrunk` (same checks, same messages). */
export function collectVlanTrunk(trunk: readonly Trunk[] | null | undefined): number[] | undefined {
  if (trunk === null || trunk === undefined) return undefined;
  const ids = new Set<number>();
  const valid = (n: number): boolean => n > 0 && n <= 4094;
  for (const item of trunk) {
    if (item === null || item === undefined) continue;
    const min = orUndefined(item.minID);
    const max = orUndefined(item.maxID);
    if (min !== undefined && max !== undefined) {
      if (!valid(min)) throw invalidConfig("incorrect trunk minID parameter");
      if (!valid(max)) throw invalidConfig("incorrect trunk maxID parameter");
      if (max < min) throw invalidConfig("minID is greater than maxID in trunk parameter");
      for (let id = min; id <= max; id++) ids.add(id);
    } else if (min === undefined && max !== undefined) {
      throw invalidConfig("minID and maxID should be configured simultaneously, minID is missing");
    } else if (min !== undefined && max === undefined) {
      throw invalidConfig("minID and maxID should be configured simultaneously, maxID is missing");
    }
    const id = orUndefined(item.id);
    if (id !== undefined) {
      if (!valid(id)) throw invalidConfig("incorrect trunk id parameter");
      ids.add(id);
    }
  }
  return ids.size === 0 ? undefined : [...ids].sort((a, b) => a - b);
}

/** Normalises a MAC as Go's `net.ParseMAC` reads a 6-byte one (`:` or `-` separated); undefined when invalid. */
export function normalizeMac(text: string): string | undefined {
  if (!/^[0-9a-fA-F]{2}([:-][0-9a-fA-F]{2}){5}$/.test(text)) return undefined;
  const sep = text[2];
  if (text.split("").some((c, i) => i % 3 === 2 && c !== sep)) return undefined;
  return text.toLowerCase().replaceAll("-", ":");
}

/**
 * Parses the bridge config (`loadNetConf`): defaults, VLAN and trunk checks, and the MAC
 * from CNI_ARGS < `args.cni.mac` < `runtimeConfig.mac`. CNI_ARGS is parsed on DEL too (CA-6).
 */
export function parseBridgeConfig(config: unknown, cniArgs: string): BridgeConfig {
  const c = parseWith(Schema, config);
  const vlan = c.vlan ?? 0;
  if (vlan < 0 || vlan > 4094) throw invalidConfig(`invalid VLAN ID ${vlan} (must be between 0 and 4094)`);
  // With a trunk, `vlan` is the port's native (untagged) VLAN; the reference's newer code
  // allows both together, where older releases failed "cannot set vlan and vlanTrunk".
  const vlans = collectVlanTrunk(c.vlanTrunk);
  let mac = parseCniArgs(cniArgs, ["MAC"]).MAC || undefined;
  if (c.args?.cni?.mac) mac = c.args.cni.mac;
  if (c.runtimeConfig?.mac) mac = c.runtimeConfig.mac;
  const isDefaultGateway = c.isDefaultGateway ?? false;
  return {
    cniVersion: c.cniVersion ?? "0.1.0",
    name: c.name ?? "",
    bridge: c.bridge || "cni0",
    // isDefaultGateway forces isGateway (§8.1).
    isGateway: (c.isGateway ?? false) || isDefaultGateway,
    isDefaultGateway,
    forceAddress: c.forceAddress ?? false,
    ipMasq: c.ipMasq ?? false,
    ipMasqBackend: orUndefined(c.ipMasqBackend),
    mtu: c.mtu ?? 0,
    hairpinMode: c.hairpinMode ?? false,
    promiscMode: c.promiscMode ?? false,
    vlan,
    vlans,
    vlanTrunkSet: c.vlanTrunk !== undefined && c.vlanTrunk !== null,
    // The reference defaults this to true "to maintain existing behavior".
    preserveDefaultVlan: c.preserveDefaultVlan ?? true,
    macspoofchk: c.macspoofchk ?? false,
    enabledad: c.enabledad ?? false,
    disableContainerInterface: c.disableContainerInterface ?? false,
    portIsolation: c.portIsolation ?? false,
    mac,
    ipamType: c.ipam?.type ?? "",
    dns: dnsOverride(c.dns),
  };
}

/**
 * The checks ADD makes before touching anything: the reference's L3/disableContainerInterface
 * and hairpin/promisc conflicts, and the firewall-backed fields this build refuses (code 2).
 */
export function validateForAdd(c: BridgeConfig): void {
  // The kernel refuses a name over 15 bytes; the reference reports netlink's ERANGE.
  if (new TextEncoder().encode(c.bridge).length > 15) {
    throw new Error(
      `failed to create bridge "${c.bridge}": could not add "${c.bridge}": numerical result out of range`,
    );
  }
  if (c.ipamType !== "" && c.disableContainerInterface)
    throw invalidConfig("cannot use IPAM when DisableContainerInterface flag is set");
  // v1.1.1 (Debian) differs: its message ends with a period; SPEC §8.1 follows upstream main
  if (c.hairpinMode && c.promiscMode)
    throw invalidConfig("cannot set hairpin mode and promiscuous mode at the same time");
  // An unknown backend fails before anything is touched (H-3).
  if (c.ipMasq) masqBackendOf(c);
  // The reference finds a bad MAC only when it creates the veth; we refuse before IPAM runs.
  if (c.mac !== undefined && normalizeMac(c.mac) === undefined)
    throw invalidConfig(`failed to make veth pair: address ${c.mac}: invalid MAC address`);
}
