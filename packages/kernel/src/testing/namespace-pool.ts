/**
 * Throwaway namespaces a test file owns, named after its process (`tscni-<tag>-<pid>-…`),
 * so cleanup holds even when a test times out (bun then kills its processes, the deleting
 * `ip` of its `finally` among them): `afterAll` deletes whatever the file still has, and `sweepDead` deletes the namespaces of an earlier run whose process is gone (one
 * killed before its hooks ran). Namespaces of a live process, another helper's run of the
 * same test, are never touched.
 */
import { existsSync } from "node:fs";
import { toolPath } from "../linux/runner.ts";
import { createThrowawayNetns, deleteThrowawayNetns, type ThrowawayNetns } from "./throwaway.ts";

/** Namespaces made for one test file, deletable all at once. */
export interface NamespacePool {
  /** A fresh namespace, tracked until {@link NamespacePool.drop} or {@link NamespacePool.dropAll}. */
  make(opts?: { loopbackUp?: boolean }): ThrowawayNetns;
  /** Deletes one namespace of the pool. */
  drop(ns: ThrowawayNetns | undefined): void;
  /**
   * Deletes every namespace of the pool still there and closes it (for `afterAll`): a
   * timed-out test still running in the background then fails to make more.
   */
  dropAll(): void;
  /** Deletes the `tscni-<tag>-<pid>-…` namespaces whose process no longer runs. */
  sweepDead(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, as someone else.
    return (e as { code?: string }).code === "EPERM";
  }
}

/** A pool of namespaces tagged `tag` (letters only) for this process. */
export function namespacePool(tag: string): NamespacePool {
  const live = new Set<ThrowawayNetns>();
  let closed = false;
  return {
    make(opts = {}) {
      if (closed) throw new Error(`the "${tag}" namespace pool is closed: its tests are over`);
      const ns = createThrowawayNetns(`${tag}-${process.pid}`, opts);
      live.add(ns);
      return ns;
    },
    drop(ns) {
      if (ns === undefined) return;
      deleteThrowawayNetns(ns);
      // bun kills a timed-out test's processes, the `ip netns del` of its finally too: the
      // namespace stays tracked until it is really gone, and dropAll tries again.
      if (!existsSync(ns.path)) live.delete(ns);
    },
    dropAll() {
      closed = true;
      for (const ns of live) deleteThrowawayNetns(ns);
      live.clear();
    },
    sweepDead() {
      const out = Bun.spawnSync([toolPath("ip"), "netns", "list"], { stderr: "ignore" }).stdout.toString();
      const own = new RegExp(`^tscni-${tag}-(\\d+)-[a-z0-9]+$`);
      for (const line of out.split("\n")) {
        const name = line.split(" ")[0] ?? "";
        const pid = own.exec(name)?.[1];
        if (pid !== undefined && Number(pid) !== process.pid && !alive(Number(pid)))
          deleteThrowawayNetns({ name, path: `/var/run/netns/${name}` });
      }
    },
  };
}
