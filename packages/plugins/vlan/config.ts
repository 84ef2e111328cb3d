/**
 * The vlan plugin's configuration (issue 13; the reference's
 * `plugins/main/vlan`): `master` is required, `vlanId` 0..4094, `mtu` up to the
 * master's, `linkInContainer`. Pure; the MTU bound needs the kernel (shared/master.ts).
 */
import * as v from "valibot";
import type { DNS } from "@tscni/spec";
import { commonEntries, dnsOverride, goBool, goInt, goString, invalidConfig, parseWith } from "../shared/netconf.ts";

/** The vlan config after the reference's static checks. */
export interface VlanConfig {
  cniVersion: string;
  name: string;
  master: string;
  vlanId: number;
  mtu: number;
  linkInContainer: boolean;
  ipamType: string;
  dns: DNS | undefined;
}

const Schema = v.looseObject(
  { ...commonEntries, master: goString, vlanId: goInt, linkInContainer: goBool },
  "main.NetConf",
);

/** Parses the config and makes the reference's static checks, with its messages. */
export function parseVlanConfig(config: unknown): VlanConfig {
  const c = parseWith(Schema, config);
  const master = c.master ?? "";
  const vlanId = c.vlanId ?? 0;
  // v1.1.1 (Debian) differs: code 999; SPEC §4.2 gives code 7 (invalid network config)
  if (master === "")
    throw invalidConfig('"master" field is required. It specifies the host interface name to create the VLAN for');
  // The reference's message says 4095 though it refuses it (sic).
  if (vlanId < 0 || vlanId > 4094)
    throw invalidConfig(`invalid VLAN ID ${vlanId} (must be between 0 and 4095 inclusive)`);
  return {
    cniVersion: c.cniVersion ?? "0.1.0",
    name: c.name ?? "",
    master,
    vlanId,
    mtu: c.mtu ?? 0,
    linkInContainer: c.linkInContainer ?? false,
    ipamType: c.ipam?.type ?? "",
    dns: dnsOverride(c.dns),
  };
}
