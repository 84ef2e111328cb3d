/**
 * The tap plugin's configuration (upstream main's plugins/main/tap `loadConf`): the tap's
 * queues, MTU, MAC (config, then `CNI_ARGS` `MAC`, then `runtimeConfig.mac`, the last
 * one set winning), owner and group, an SELinux context (accepted), and a bridge to
 * enslave it to.
 */
import * as v from "valibot";
import type { DNS } from "@tscni/spec";
import { parseCniArgs } from "@tscni/spec/cni-args";
import { commonEntries, dnsOverride, goBool, goObject, goString, invalidConfig, parseWith } from "../shared/netconf.ts";

/** The tap config after defaults. */
export interface TapConfig {
  cniVersion: string;
  name: string;
  multiQueue: boolean;
  /** 0: the kernel's default. */
  mtu: number;
  mac: string;
  owner: number | undefined;
  group: number | undefined;
  selinuxContext: string;
  bridge: string;
  ipamType: string;
  dns: DNS | undefined;
}

/** A Go `*uint32`. */
const goUint32 = v.nullish(
  v.pipe(v.number("uint32"), v.integer("uint32"), v.minValue(0, "uint32"), v.maxValue(4294967295, "uint32")),
);

const Schema = v.looseObject(
  {
    ...commonEntries,
    multiQueue: goBool,
    mac: goString,
    owner: goUint32,
    group: goUint32,
    selinuxContext: goString,
    bridge: goString,
    runtimeConfig: v.nullish(goObject({ mac: goString }, "")),
  },
  "main.NetConf",
);

const MAC = /^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$/;

/** Only the IPAM type: what STATUS and GC need. */
export function parseIpamType(config: unknown): string {
  return parseWith(Schema, config).ipam?.type ?? "";
}

/** Parses the tap config as the reference's `loadConf` with `CNI_ARGS` (its `MAC` key). */
export function parseTapConfig(config: unknown, cniArgs: string): TapConfig {
  const c = parseWith(Schema, config);
  let mac = c.mac ?? "";
  if (cniArgs !== "") {
    const args = parseCniArgs(cniArgs, ["MAC"]);
    if ((args.MAC ?? "") !== "") mac = args.MAC!;
  }
  if ((c.runtimeConfig?.mac ?? "") !== "") mac = c.runtimeConfig!.mac!;
  if (mac !== "" && !MAC.test(mac))
    throw invalidConfig(`invalid args ${mac} for MAC addr: address ${mac}: invalid MAC address`);
  return {
    cniVersion: c.cniVersion ?? "0.1.0",
    name: c.name ?? "",
    multiQueue: c.multiQueue ?? false,
    mtu: c.mtu ?? 0,
    mac: mac.toLowerCase(),
    owner: c.owner ?? undefined,
    group: c.group ?? undefined,
    selinuxContext: c.selinuxContext ?? "",
    bridge: c.bridge ?? "",
    ipamType: c.ipam?.type ?? "",
    dns: dnsOverride(c.dns),
  };
}
