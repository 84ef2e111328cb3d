/**
 * The sysfs lookups of host-device (the reference's `getLink`,
 * `handleDeviceID`, `hasDpdkDriver`) behind a small port, so tests point them at a tree
 * of their own instead of the machine's /sys.
 */

/** Reads of a sysfs tree. */
export interface Sysfs {
  /** The root the reference's absolute paths are taken under (`/sys` on a machine). */
  readonly root: string;
  /** Entry names of a directory, sorted; undefined when it cannot be read. */
  list(path: string): string[] | undefined;
  /** True when the path exists (a dangling symlink does not). */
  exists(path: string): boolean;
  /** The last component of the path a symlink resolves to, or undefined. */
  linkTarget(path: string): string | undefined;
}

/** Drivers whose devices have no kernel netdev to move (DPDK mode). */
const USERSPACE_DRIVERS: readonly string[] = ["vfio-pci", "uio_pci_generic", "igb_uio"];

/** `/sys/bus/pci/devices` under the tree. */
export function pciDir(sys: Sysfs): string {
  return `${sys.root}/bus/pci/devices`;
}

/** `/sys/bus/auxiliary/devices` under the tree. */
export function auxDir(sys: Sysfs): string {
  return `${sys.root}/bus/auxiliary/devices`;
}

/** The first netdev name under `dir` (`linkFromPath`), or the reference's error. */
export function netdevIn(sys: Sysfs, dir: string): string {
  const entries = sys.list(dir);
  if (entries === undefined)
    throw new Error(`failed to read directory ${dir}: "open ${dir}: no such file or directory"`);
  const first = entries[0];
  if (first === undefined) throw new Error(`failed to find network device in path ${dir}`);
  return first;
}

/** The netdev of a PCI device: `<pci>/net`, or a virtio child's `net` directory. */
export function pciNetdev(sys: Sysfs, pciAddr: string): string {
  let dir = `${pciDir(sys)}/${pciAddr}/net`;
  if (!sys.exists(dir)) {
    const virtio = (sys.list(`${pciDir(sys)}/${pciAddr}`) ?? []).find(
      (e) => e.startsWith("virtio") && sys.exists(`${pciDir(sys)}/${pciAddr}/${e}/net`),
    );
    if (virtio === undefined) throw new Error(`no net directory under pci device ${pciAddr}`);
    dir = `${pciDir(sys)}/${pciAddr}/${virtio}/net`;
  }
  return netdevIn(sys, dir);
}

/** True when the PCI device is bound to a userspace (DPDK) driver; the reference's error when it has none. */
export function hasDpdkDriver(sys: Sysfs, pciAddr: string): boolean {
  const link = `${pciDir(sys)}/${pciAddr}/driver`;
  const driver = sys.linkTarget(link);
  if (driver === undefined) throw new Error(`error with host device: lstat ${link}: no such file or directory`);
  return USERSPACE_DRIVERS.includes(driver);
}

/** The machine's sysfs, read synchronously (a handful of small reads per invocation). */
export async function realSysfs(root = "/sys"): Promise<Sysfs> {
  const fs = await import("node:fs");
  return {
    root,
    list(path) {
      try {
        return fs.readdirSync(path).sort();
      } catch {
        return undefined;
      }
    },
    exists: (path) => fs.existsSync(path),
    linkTarget(path) {
      try {
        return fs.realpathSync(path).split("/").pop();
      } catch {
        return undefined;
      }
    },
  };
}
