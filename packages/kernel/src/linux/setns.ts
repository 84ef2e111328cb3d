/**
 * The default {@link NsRunner}: setns(2) through bun:ffi on the JS thread, around
 * synchronous work only (a spawnSync, a /proc/sys read or write), always undone in
 * `finally`, never awaiting while switched (CONVENTIONS.md item 10). A child spawned while
 * switched starts in the target namespace, and /proc/sys/net follows the calling thread,
 * so this saves the `nsenter` process (~1.2 ms) per run.
 */
import { libc } from "../libc.ts";
import { homeFd, within } from "../netns.ts";
import { readProcSys, writeProcSys } from "../proc-sys.ts";
import { spawnAll, spawnStarted, type NsRunner } from "./runner.ts";

/** Creates the setns runner; rejects when libc's setns cannot be loaded (use nsenter then). */
export async function createSetnsRunner(): Promise<NsRunner> {
  const c = await libc();
  // The process's own namespace, held open to come back to (and to name to `ip`: while
  // this thread is switched, /proc/PID/ns/net shows the other one).
  const home = homeFd(c);
  const inNs = <T>(ns: string | undefined, work: () => T): T => within(c, ns, work);

  return {
    hostRef: `/proc/${process.pid}/fd/${home}`,
    exec: (ns, cmds) => inNs(ns, () => spawnAll(cmds)),
    // Switched only while the child is made; its run is awaited back home. A namespace
    // that cannot be entered rejects, as the nsenter runner's does, rather than throwing.
    spawn: (ns, cmd) => {
      try {
        return inNs(ns, () => spawnStarted(cmd));
      } catch (e) {
        return Promise.reject(e);
      }
    },
    readFile: (ns, path) => inNs(ns, () => readProcSys(path)),
    writeFile: (ns, path, value) => inNs(ns, () => writeProcSys(path, value)),
  };
}
