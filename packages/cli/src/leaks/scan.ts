/**
 * One pass of `cni leaks` over some networks: what the cache and host-local's stores hold
 * for each (the unreadable cache records included), and the findings. `cni gc` uses it too,
 * so that it never exits 0 while it knows of a leak it left (issue 16 item 1).
 */
import { existsSync } from "node:fs";
import type { NetworkConfigList } from "@tscni/config";
import type { CniRuntime } from "@tscni/runtime";
import { type Leak, type NetworkState, findLeaks } from "./find.ts";
import { networkState } from "./gather.ts";

/** The state of every network in `lists`, from the runtime's cache and the stores. */
export async function networkStates(lists: readonly NetworkConfigList[], runtime: CniRuntime): Promise<NetworkState[]> {
  const cached = await runtime.getCachedAttachments();
  const unreadable = await runtime.getUnreadableCacheRecords();
  return lists.map((l) => networkState(l, runtime.cacheDir, cached, unreadable));
}

/** Every finding of `lists`; the kernel is asked only whether netns paths exist. */
export async function scanLeaks(lists: readonly NetworkConfigList[], runtime: CniRuntime): Promise<Leak[]> {
  return (await networkStates(lists, runtime)).flatMap((s) => findLeaks(s, existsSync));
}
