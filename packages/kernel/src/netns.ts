/**
 * Entering a network namespace around synchronous work only (CONVENTIONS.md item 10):
 * setns(2) on the JS thread, the work, and setns back in `finally`, never awaiting while
 * switched. The netlink driver switches only to create a socket or touch /proc/sys/net,
 * both of which stay bound to the namespace they were made in; the iproute2 driver's
 * setns runner switches around a spawnSync. The one home of namespace switching.
 */
import { KernelError } from "./kernel.ts";
import { cPath, type Libc } from "./libc.ts";
import { requireNetns } from "./linux/runner.ts";
import { readProcSys, writeProcSys } from "./proc-sys.ts";

const CLONE_NEWNET = 0x40000000;
const O_RDONLY_CLOEXEC = 0x80000;

let home: number | undefined;

/** An fd of the namespace this process started in, opened once and held to come back to. */
export function homeFd(c: Libc): number {
  if (home === undefined) {
    const fd = c.open(cPath("/proc/thread-self/ns/net"), O_RDONLY_CLOEXEC);
    if (fd < 0) throw new KernelError("other", `open own netns: errno ${c.errno()}`);
    home = fd;
  }
  return home;
}

/** Opens a namespace file; KernelError `netns-gone` when it is not a live namespace. */
export function openNetns(c: Libc, path: string): number {
  requireNetns(path);
  const fd = c.open(cPath(path), O_RDONLY_CLOEXEC);
  if (fd < 0) throw new KernelError("netns-gone", `netns "${path}" does not exist`);
  return fd;
}

/** Runs `work` with this thread in namespace `ns` (undefined: where it is). */
export function within<T>(c: Libc, ns: string | undefined, work: () => T): T {
  if (ns === undefined) return work();
  const back = homeFd(c);
  const fd = openNetns(c, ns);
  try {
    if (c.setns(fd, CLONE_NEWNET) !== 0) {
      const errno = c.errno();
      throw new KernelError(errno === 22 ? "netns-gone" : "other", `setns "${ns}": errno ${errno}`);
    }
  } finally {
    c.close(fd);
  }
  try {
    return work();
  } finally {
    // Failing to come back would leave this process in a container's namespace.
    if (c.setns(back, CLONE_NEWNET) !== 0)
      throw new Error(`setns back to the host namespace failed: errno ${c.errno()}`);
  }
}

/** Reads a /proc/sys file inside `ns`; undefined when it does not exist. */
export function readSysctlFile(c: Libc, ns: string | undefined, path: string): string | undefined {
  return within(c, ns, () => readProcSys(path));
}

/** Writes a /proc/sys file inside `ns`; KernelError `not-found`, `invalid` or `other`. */
export function writeSysctlFile(c: Libc, ns: string | undefined, path: string, value: string): void {
  within(c, ns, () => writeProcSys(path, value));
}
