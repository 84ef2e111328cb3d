/**
 * The default {@link NsRunner}: setns(2) through bun:ffi on the JS thread, around
 * synchronous work only (a spawnSync, a /proc/sys read or write), always undone in
 * `finally`, never awaiting while switched (CONVENTIONS.md item 10). A child spawned while
 * switched starts in the target namespace, and /proc/sys/net follows the calling thread,
 * so this saves the `nsenter` process (~1.2 ms) per run.
 */
import { closeSync, openSync } from "node:fs";
import { KernelError } from "../kernel.ts";
import { readProcSys, writeProcSys } from "../proc-sys.ts";
import { requireNetns, spawnAll, type NsRunner } from "./runner.ts";

const CLONE_NEWNET = 0x40000000;

interface Libc {
  setns(fd: number, nstype: number): number;
  errno(): number;
}

let libc: Libc | undefined;
// The process's own namespace, opened once and held open so we can always come back (and
// name it to `ip`: while this thread is switched, /proc/PID/ns/net shows the other one).
let hostFd: number | undefined;

/** libc's setns, loaded on first use (bun:ffi is not touched at import time). */
async function loadLibc(): Promise<Libc> {
  const { dlopen, FFIType, read } = await import("bun:ffi");
  const lib = dlopen("libc.so.6", {
    setns: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    __errno_location: { args: [], returns: FFIType.ptr },
  });
  return {
    setns: (fd, nstype) => lib.symbols.setns(fd, nstype),
    errno: () => {
      const p = lib.symbols.__errno_location();
      return p === null ? 0 : read.i32(p, 0);
    },
  };
}

/** Creates the setns runner; rejects when libc's setns cannot be loaded (use nsenter then). */
export async function createSetnsRunner(): Promise<NsRunner> {
  const c = (libc ??= await loadLibc());
  const home = (hostFd ??= openSync("/proc/thread-self/ns/net", "r"));

  function within<T>(ns: string | undefined, work: () => T): T {
    if (ns === undefined) return work();
    requireNetns(ns);
    let fd: number;
    try {
      fd = openSync(ns, "r");
    } catch {
      throw new KernelError("netns-gone", `netns "${ns}" does not exist`);
    }
    try {
      if (c.setns(fd, CLONE_NEWNET) !== 0) {
        const errno = c.errno();
        throw new KernelError(errno === 22 ? "netns-gone" : "other", `setns "${ns}": errno ${errno}`);
      }
    } finally {
      closeSync(fd);
    }
    try {
      return work();
    } finally {
      // Failing to come back would leave this process in a container's namespace.
      if (c.setns(home, CLONE_NEWNET) !== 0) throw new Error(`setns back to the host namespace failed: errno ${c.errno()}`);
    }
  }

  return {
    hostRef: `/proc/${process.pid}/fd/${home}`,
    exec: (ns, cmds) => within(ns, () => spawnAll(cmds)),
    readFile: (ns, path) => within(ns, () => readProcSys(path)),
    writeFile: (ns, path, value) => within(ns, () => writeProcSys(path, value)),
  };
}
