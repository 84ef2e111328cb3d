/**
 * Same-attachment calls one at a time when our bridge or ptp is exec'd by another runtime
 * (cnitool, containerd): LC-2 (§1.9) says the runtime must not overlap ADD, CHECK and DEL
 * of one container, but a timeout-and-retry does, and an ADD that interleaves with a DEL
 * can leave a live interface whose address host-local already freed (issue 16 item 4).
 *
 * Choice: the lock lives in the plugin's data dir where one exists, i.e. host-local's
 * (`<dataDir>/.tscni-locks/`, beside the store and our index; a name starting with a dot
 * is never a network's directory, VAL-1). Without host-local IPAM there is no data dir
 * and no lock: such a plugin keeps no address state that an interleaving could leak.
 * Only the interface-making plugins lock; host-local alone needs nothing more than its
 * store lock, and would deadlock here when exec'd by a locked bridge.
 */
import { join } from "@tscni/spec/path";
import { DEFAULT_DATA_DIR } from "@tscni/ipam";
import { PLUGIN_LOCK_DIR, withAttachmentLock } from "@tscni/ipam/lock";
import type { CmdArgs, PluginDefinition } from "@tscni/skel";

/** The lock directory of an invocation: in its host-local data dir, or none. */
export function lockDirOf(a: CmdArgs): string | undefined {
  const ipam = (a.config as { ipam?: { type?: unknown; dataDir?: unknown } }).ipam;
  if (ipam?.type !== "host-local") return undefined;
  const dataDir = typeof ipam.dataDir === "string" && ipam.dataDir !== "" ? ipam.dataDir : DEFAULT_DATA_DIR;
  return join(dataDir, PLUGIN_LOCK_DIR);
}

function unwritable(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === "EACCES" || code === "EPERM" || code === "EROFS";
}

/** Runs `fn` under the attachment's lock; a data dir we may not write runs unlocked (host-local could change nothing there either). */
async function locked<T>(a: CmdArgs, fn: () => Promise<T>): Promise<T> {
  const dir = lockDirOf(a);
  if (dir === undefined) return fn();
  let inside = false;
  try {
    return await withAttachmentLock(
      dir,
      { network: a.config.name, containerID: a.containerID, ifName: a.ifName },
      () => {
        inside = true;
        return fn();
      },
    );
  } catch (err) {
    if (inside || !unwritable(err)) throw err;
    return fn();
  }
}

/** `def` with ADD, CHECK and DEL each holding the attachment's lock for their whole run (LC-2). */
export function serialisedDefinition(def: PluginDefinition): PluginDefinition {
  const h = def.handlers;
  return {
    ...def,
    handlers: {
      ...h,
      ...(h.add !== undefined ? { add: (a: CmdArgs) => locked(a, () => h.add!.call(h, a)) } : {}),
      ...(h.check !== undefined ? { check: (a: CmdArgs) => locked(a, () => h.check!.call(h, a)) } : {}),
      ...(h.del !== undefined ? { del: (a: CmdArgs) => locked(a, () => h.del!.call(h, a)) } : {}),
    },
  };
}
