/**
 * Same-attachment calls one at a time (LC-2, §1.9; issue 16 item 4). libcni leaves this
 * to its caller; a runtime that times out an ADD and retries with a DEL breaks it, and an
 * interleaved ADD and DEL can leave a live interface whose address is free. We hold an
 * exclusive lock per (network, containerID, ifname) in `<cacheDir>/locks/`, beside the
 * result cache, around every ADD, CHECK and DEL (GC's stale DELs included), so our CLI and
 * the daemon (which runs this runtime) never interleave them.
 */
import { join } from "node:path";
import { withAttachmentLock } from "@tscni/ipam/lock";
import type { RuntimeContext } from "./context.ts";
import type { RuntimeConf } from "./runtime-conf.ts";

/** The lock directory of a cache directory. */
export function lockDirOf(cacheDir: string): string {
  return join(cacheDir, "locks");
}

function unwritable(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === "EACCES" || code === "EPERM" || code === "EROFS";
}

/**
 * Runs `fn` holding the attachment's lock. A cache directory we may not write (a read-only
 * CHECK by an unprivileged user) runs unlocked: the cache could not be changed then either.
 */
export async function serialised<T>(
  ctx: RuntimeContext,
  network: string,
  rt: RuntimeConf,
  fn: () => Promise<T>,
): Promise<T> {
  const key = { network, containerID: rt.containerID, ifName: rt.ifName };
  let locked = false;
  try {
    return await withAttachmentLock(lockDirOf(ctx.cache.cacheDir), key, () => {
      locked = true;
      return fn();
    });
  } catch (err) {
    if (locked || !unwritable(err)) throw err;
    return fn();
  }
}
