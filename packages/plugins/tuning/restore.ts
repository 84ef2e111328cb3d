/**
 * tuning's DEL (`restoreBackup`): the attributes in the backup file are set back in the
 * reference's order (MTU, MAC, promisc, all-multicast, queue length), each on its own;
 * the file is removed only when all of them succeeded. No file, a file that does not
 * decode, or a link that is gone: nothing to do, and the file stays, as the reference's.
 */
import { existsSync } from "node:fs";
import type { Kernel, LinkSet } from "@tscni/kernel";
import { readBackup, removeBackup } from "./backup.ts";
import { invalidMacMessage, parseGoMac } from "./mac.ts";

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Restores the attachment's link from `path`; throws the joined failures (DEL logs them). */
export async function restoreBackup(kernel: Kernel, path: string, netns: string, ifName: string): Promise<void> {
  if (!existsSync(path)) return;
  const b = readBackup(path);
  if (b === undefined || netns === "") return;
  if ((await kernel.link(netns, ifName)) === undefined) return;
  const failures: string[] = [];
  const set = async (what: string, fields: Omit<LinkSet, "op" | "ns" | "name">): Promise<void> => {
    try {
      await kernel.apply([{ op: "link.set", ns: netns, name: ifName, ...fields }]);
    } catch (err) {
      failures.push(`failed to restore ${what}: ${message(err)}`);
    }
  };
  if (b.mtu !== undefined) await set("MTU", { mtu: b.mtu });
  if (b.mac !== undefined) {
    const mac = parseGoMac(b.mac);
    if (mac === undefined) failures.push(`failed to restore MAC address: ${invalidMacMessage(b.mac)}`);
    else await set("MAC address", { mac });
  }
  if (b.promisc !== undefined) await set("promiscuous mode", { promisc: b.promisc });
  if (b.allmulti !== undefined) await set("all-multicast mode", { allmulti: b.allmulti });
  if (b.txQLen !== undefined) await set("transmit queue length", { txQLen: b.txQLen });
  if (failures.length > 0) throw new Error(failures.join("; "));
  removeBackup(path);
}
