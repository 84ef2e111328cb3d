/**
 * The host-device configuration (the reference's `loadConf`): which host device to take,
 * by `device` name, `hwaddr`, `kernelpath` or `pciBusID`, or the runtime's `deviceID`
 * (SPEC §5 capability `deviceID`), which names a PCI or auxiliary-bus device.
 */
import * as v from "valibot";
import type { DNS } from "@tscni/spec";
import { commonEntries, dnsOverride, goObject, goString, invalidConfig, parseWith } from "../shared/netconf.ts";
import { auxDir, hasDpdkDriver, pciDir, type Sysfs } from "./sysfs.ts";

/** The host-device config after `deviceID` is resolved. */
export interface HostDeviceConfig {
  cniVersion: string;
  name: string;
  device: string;
  hwaddr: string;
  kernelpath: string;
  pciBusID: string;
  /** An auxiliary-bus device named by `deviceID`. */
  auxDevice: string;
  /** The PCI device is bound to a userspace driver: nothing to move (the reference's DPDKMode). */
  dpdkMode: boolean;
  ipamType: string;
  /** The config's DNS, which replaces IPAM's in the result. */
  dns: DNS | undefined;
}

const Schema = v.looseObject(
  {
    ...commonEntries,
    device: goString,
    hwaddr: goString,
    kernelpath: goString,
    pciBusID: goString,
    runtimeConfig: v.nullish(
      goObject({ deviceID: goString }, 'struct { DeviceID string "json:\\"deviceID,omitempty\\"" }'),
    ),
  },
  "main.NetConf",
);

/** Only the JSON shape, no sysfs: what STATUS needs (the reference's cmdStatus). */
export function parseIpamType(config: unknown): string {
  return parseWith(Schema, config).ipam?.type ?? "";
}

/** Parses and resolves the config as the reference's `loadConf` (deviceID, DPDK driver check). */
export function parseHostDeviceConfig(config: unknown, sys: Sysfs): HostDeviceConfig {
  const c = parseWith(Schema, config);
  let pciBusID = c.pciBusID ?? "";
  let auxDevice = "";
  const deviceID = c.runtimeConfig?.deviceID ?? "";
  if (deviceID !== "") {
    if (sys.exists(`${pciDir(sys)}/${deviceID}`)) pciBusID = deviceID;
    else if (sys.exists(`${auxDir(sys)}/${deviceID}`)) {
      pciBusID = "";
      auxDevice = deviceID;
    } else throw invalidConfig(`runtime config DeviceID ${deviceID} not found or unsupported`);
  }
  const conf: HostDeviceConfig = {
    cniVersion: c.cniVersion ?? "0.1.0",
    name: c.name ?? "",
    device: c.device ?? "",
    hwaddr: c.hwaddr ?? "",
    kernelpath: c.kernelpath ?? "",
    pciBusID,
    auxDevice,
    dpdkMode: false,
    ipamType: c.ipam?.type ?? "",
    dns: dnsOverride(c.dns),
  };
  if (
    conf.device === "" &&
    conf.hwaddr === "" &&
    conf.kernelpath === "" &&
    conf.pciBusID === "" &&
    conf.auxDevice === ""
  ) {
    throw invalidConfig(`specify either "device", "hwaddr", "kernelpath" or "pciBusID"`);
  }
  if (conf.pciBusID !== "") conf.dpdkMode = hasDpdkDriver(sys, conf.pciBusID);
  return conf;
}
