/**
 * What tuning's ADD changes, as data (ARCHITECTURE.md "The kernel seam"): the sysctl
 * writes in the container's namespace (each undone to the value read before it), the
 * backup of the link's attributes the reference keeps for DEL, and the link changes in
 * the reference's order (MAC, promisc on, MTU, all-multicast, queue length), each with
 * its undo so a failed ADD leaves the link as it found it (ADD-6). Pure.
 */
import type { LinkInfo, LinkSet, Netns } from "@tscni/kernel";
import type { PlanStep } from "../shared/steps.ts";
import type { Backup } from "./backup.ts";
import type { TuningConfig } from "./config.ts";
import { kernelKey } from "./sysctl.ts";

/** ADD's plan. */
export interface TuningPlan {
  /** Applied first, as the reference writes sysctls before anything else. */
  sysctls: PlanStep[];
  /** Written after the sysctls and before the link changes; undefined when no link attribute changes. */
  backup: Backup | undefined;
  link: PlanStep[];
}

/** The promiscuity the reference records (`Attrs().Promisc != 0`: a count, a bridge port counts one). */
export function promiscuous(link: LinkInfo): boolean {
  return (link.promiscuity ?? (link.promisc ? 1 : 0)) !== 0;
}

/**
 * The plan for `conf` on `link` (undefined when it does not exist; only a config that
 * changes no link attribute may then be planned). `files` are the sysctls' /proc/sys
 * files in config order, `before` their current values by file.
 */
export function planTuning(
  conf: TuningConfig,
  ns: Netns,
  files: readonly { file: string; value: string }[],
  before: ReadonlyMap<string, string | undefined>,
  link: LinkInfo | undefined,
  mac: string | undefined,
): TuningPlan {
  const sysctls: PlanStep[] = files.map(({ file, value }) => {
    const key = kernelKey(file);
    const old = before.get(file);
    return {
      op: { op: "sysctl.set", ns, key, value },
      ...(old !== undefined && { undo: { op: "sysctl.set" as const, ns, key, value: old } }),
    };
  });
  if (link === undefined) return { sysctls, backup: undefined, link: [] };
  const name = link.name;
  type Fields = Omit<LinkSet, "op" | "ns" | "name">;
  const set = (fields: Fields, undo: Fields): PlanStep => ({
    op: { op: "link.set", ns, name, ...fields },
    undo: { op: "link.set", ns, name, ...undo },
  });
  const backup: Backup = {};
  const steps: PlanStep[] = [];
  if (mac !== undefined) {
    backup.mac = link.mac;
    steps.push(set({ mac }, { mac: link.mac }));
  }
  if (conf.promisc) {
    backup.promisc = promiscuous(link);
    steps.push(set({ promisc: true }, { promisc: link.promisc }));
  }
  if (conf.mtu !== 0) {
    backup.mtu = link.mtu;
    steps.push(set({ mtu: conf.mtu }, { mtu: link.mtu }));
  }
  if (conf.allmulti !== undefined) {
    backup.allmulti = link.allmulti === true;
    steps.push(set({ allmulti: conf.allmulti }, { allmulti: link.allmulti === true }));
  }
  if (conf.txQLen !== undefined) {
    backup.txQLen = link.txQLen ?? 0;
    steps.push(set({ txQLen: conf.txQLen }, { txQLen: link.txQLen ?? 0 }));
  }
  return { sysctls, backup, link: steps };
}
