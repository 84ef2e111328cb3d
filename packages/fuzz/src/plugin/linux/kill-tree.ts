/**
 * Kills a process and everything it started (a plugin under strace under `ip netns exec`,
 * and the iptables or IPAM children the plugin spawned), by pid, children first.
 */
import { readdirSync, readFileSync } from "node:fs";

/** The parent pid of every process, from /proc. */
function parents(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name may hold spaces and parentheses: the fields start after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** SIGKILLs `pid` and all its descendants; never throws. */
export function killTree(pid: number): void {
  const children = parents();
  const order: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) walk(c);
    order.push(p);
  };
  walk(pid);
  for (const p of order) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
