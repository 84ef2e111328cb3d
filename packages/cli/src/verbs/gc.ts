/**
 * `cni gc <network-name> <netns-path>`: cnitool's gc (CT-4): no valid attachments, so every
 * cached attachment of the network is deleted, then GC goes to each plugin (1.1.0+).
 *
 * Fail-safe (issue 16 item 1): an unreadable cache record may describe a live pod, so its
 * possible owners are passed as the only valid attachments and their addresses stay; the
 * host-local stores are collected at every cniVersion, under their lock; and the verb
 * fails (exit 1) while it knows of a leak it left, naming each.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PLUGIN_LOCK_DIR } from "@tscni/ipam/lock";
import { repairDiskStore } from "@tscni/ipam/repair";
import { lockDirOf } from "@tscni/runtime";
import { CniError, ErrorCode } from "@tscni/spec";
import type { Verb } from "../io.ts";
import { findLeaks } from "../leaks/find.ts";
import { hostLocalDataDirs } from "../leaks/gather.ts";
import { unknownOwners } from "../leaks/repair.ts";
import { networkStates } from "../leaks/scan.ts";
import { COMMON_OPTIONS, runVerb, setup } from "./_cnitool.ts";

const help = `usage: cni gc <network-name> <netns-path> [options]

Like cnitool gc: treats EVERY cached attachment of the network as stale and runs DEL
for each, then sends GC to each plugin (cniVersion 1.1.0 or later) without a
valid-attachments list. The netns argument is required but unused.

Unlike cnitool it fails safe: a cache record that cannot be read keeps the addresses its
attachment may hold; host-local stores are collected at every cniVersion; and it exits 1
while anything it found stays (see \`cni leaks\`).

${COMMON_OPTIONS}
`;

/** The gc verb. */
export const verb: Verb = {
  summary: "delete every cached attachment of a network, then GC its plugins (cnitool gc)",
  help,
  run: (io) =>
    runVerb(io, help, async (args) => {
      const { list, runtime } = await setup(io, args);
      const [state] = await networkStates([list], runtime);
      const unknown = state === undefined ? [] : unknownOwners(state);
      // No list at all unless some record is unreadable: then only its owners are valid.
      await runtime.gcNetworkList(list, unknown.length > 0 ? { validAttachments: unknown } : undefined);
      if (!list.disableGC) {
        for (const dataDir of hostLocalDataDirs(list)) {
          const lockDirs = [lockDirOf(runtime.cacheDir), join(dataDir, PLUGIN_LOCK_DIR)];
          const report = await repairDiskStore(dataDir, list.name, { live: [], unknown, lockDirs });
          if (report.errors.length > 0) throw new CniError(ErrorCode.IOFailure, report.errors.join("; "));
        }
      }
      const [after] = await networkStates([list], runtime);
      const left = after === undefined ? [] : findLeaks(after, existsSync);
      if (left.length > 0) {
        const lines = left.map((l) => `${l.kind} ${l.containerID} ${l.ifName} ${l.where}: ${l.why}`);
        throw new CniError(
          ErrorCode.Internal,
          `gc left ${left.length} leak${left.length === 1 ? "" : "s"} in network ${JSON.stringify(list.name)}:\n${lines.join("\n")}`,
        );
      }
    }),
};
