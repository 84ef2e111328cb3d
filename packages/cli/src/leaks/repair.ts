/**
 * The fail-safe repair behind `cni leaks --repair` (issue 16 items 1, 2), over ports so
 * that the model test runs it on the fake kernel: host-local stores first, at every
 * cniVersion, under their lock (an address is released only when no live attachment and
 * no unreadable cache record may hold it); then GC (§7.7: DEL of the stale attachments,
 * GC to the plugins at 1.1.0+) with the live attachments and every possible owner of an
 * unreadable record as the valid set.
 */
import type { NetworkConfigList } from "@tscni/config";
import { join } from "node:path";
import { repairDiskStore } from "@tscni/ipam/repair";
import { PLUGIN_LOCK_DIR } from "@tscni/ipam/lock";
import { CniError } from "@tscni/spec";
import type { Leak, NetworkState } from "./find.ts";
import { hostLocalDataDirs } from "./gather.ts";

/** What the repair needs from outside. */
export interface RepairPorts {
  netnsExists(path: string): boolean;
  /** The runtime's attachment-lock directories (`<cacheDir>/locks`): in-flight calls are never judged. */
  readonly lockDirs: readonly string[];
  /** The runtime's GC of `list` with `validAttachments` (CniRuntime.gcNetworkList). */
  gc(list: NetworkConfigList, validAttachments: { containerID: string; ifname: string }[]): Promise<void>;
}

/** The (containerID, ifname) pairs unreadable cache records of `state` may stand for: never collected. */
export function unknownOwners(state: NetworkState): { containerID: string; ifname: string }[] {
  return state.unknown.flatMap((u) => u.candidates.map((c) => ({ containerID: c.containerID, ifname: c.ifName })));
}

/** Repairs every network of `lists` with something repairable among `leaks`; returns the error messages. */
export async function repairNetworks(
  lists: readonly NetworkConfigList[],
  states: readonly NetworkState[],
  leaks: readonly Leak[],
  ports: RepairPorts,
): Promise<string[]> {
  const errors: string[] = [];
  for (const list of lists) {
    if (
      !leaks.some((l) => l.network === list.name && l.kind !== "missing reservation" && l.kind !== "unknown attachment")
    )
      continue;
    const state = states.find((s) => s.name === list.name);
    if (state === undefined) continue;
    const live = state.attachments.filter((a) => a.netns !== "" && ports.netnsExists(a.netns));
    const unknown = unknownOwners(state);
    const busy: { containerID: string; ifname: string }[] = [];
    try {
      for (const dataDir of hostLocalDataDirs(list)) {
        const lockDirs = [...ports.lockDirs, join(dataDir, PLUGIN_LOCK_DIR)];
        const report = await repairDiskStore(dataDir, list.name, { live, unknown, lockDirs });
        errors.push(...report.errors.map((e) => `${list.name}: ${e}`));
        busy.push(...report.busy);
      }
      await ports.gc(list, [
        ...live.map((a) => ({ containerID: a.containerID, ifname: a.ifName })),
        ...unknown,
        ...busy,
      ]);
    } catch (err) {
      errors.push(`${list.name}: ${CniError.from(err).msg}`);
    }
  }
  return errors;
}
