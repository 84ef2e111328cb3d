/**
 * Finding the host device host-device takes (the reference's `getLink`): by name, by MAC
 * over the host's links, or through sysfs for `kernelpath`, `pciBusID` and auxiliary
 * devices. Errors carry the reference's wording, wrapped as its cmdAdd wraps them.
 */
import { HOST, type Kernel, type LinkInfo } from "@tscni/kernel";
import type { HostDeviceConfig } from "./config.ts";
import { auxDir, netdevIn, pciNetdev, type Sysfs } from "./sysfs.ts";

const MAC = /^[0-9a-fA-F]{2}([:-][0-9a-fA-F]{2}){5}$/;

/** The name of the netdev the config points at (before asking the kernel for it). */
function deviceName(conf: HostDeviceConfig, sys: Sysfs): string | undefined {
  if (conf.device !== "") return conf.device;
  if (conf.hwaddr !== "") return undefined;
  if (conf.kernelpath !== "") {
    const p = conf.kernelpath;
    if (!p.startsWith("/sys/devices/") || p.split("/").includes("..")) {
      throw new Error(`kernel device path "${p}" must be absolute and begin with /sys/devices/`);
    }
    return netdevIn(sys, `${sys.root}${p.slice("/sys".length)}/net`);
  }
  if (conf.pciBusID !== "") return pciNetdev(sys, conf.pciBusID);
  if (conf.auxDevice !== "") return netdevIn(sys, `${auxDir(sys)}/${conf.auxDevice}/net`);
  throw new Error("failed to find physical interface");
}

async function lookup(kernel: Kernel, conf: HostDeviceConfig, sys: Sysfs): Promise<LinkInfo> {
  const name = deviceName(conf, sys);
  if (name !== undefined) {
    const link = await kernel.link(HOST, name);
    if (link === undefined) throw new Error("Link not found");
    return link;
  }
  if (!MAC.test(conf.hwaddr))
    throw new Error(`failed to parse MAC address "${conf.hwaddr}": address ${conf.hwaddr}: invalid MAC address`);
  const want = conf.hwaddr.toLowerCase().replaceAll("-", ":");
  const link = (await kernel.links(HOST)).find((l) => l.mac.toLowerCase() === want);
  if (link === undefined) throw new Error("failed to find physical interface");
  return link;
}

/** The host link the config names, or `failed to find host device: ...`. */
export async function findHostDevice(kernel: Kernel, conf: HostDeviceConfig, sys: Sysfs): Promise<LinkInfo> {
  try {
    return await lookup(kernel, conf, sys);
  } catch (err) {
    throw new Error(`failed to find host device: ${err instanceof Error ? err.message : String(err)}`);
  }
}
