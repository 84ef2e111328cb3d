/**
 * Issue 16 item 5 on the real kernel: a container already has an interface named
 * CNI_IFNAME; ADD is refused (ADD-4) and the runtime's DEL follows (LC-3). Does the
 * pre-existing interface survive that DEL? Run against any plugin directory.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NetnsSet } from "../lib/netns.ts";

/** The outcome for one plugin: ADD's and DEL's exit codes and whether the foreign interface survived. */
export interface ForeignReport {
  readonly plugin: string;
  readonly addExit: number;
  readonly delExit: number;
  readonly foreignSurvived: boolean;
}

async function call(
  hostNs: string,
  dir: string,
  plugin: string,
  command: string,
  netns: string,
  conf: object,
): Promise<number> {
  const p = Bun.spawn(["ip", "netns", "exec", hostNs, join(dir, plugin)], {
    env: {
      PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin",
      CNI_COMMAND: command,
      CNI_CONTAINERID: "foreign1",
      CNI_NETNS: netns,
      CNI_IFNAME: "eth0",
      CNI_ARGS: "",
      CNI_PATH: dir,
    },
    stdin: new TextEncoder().encode(JSON.stringify(conf)),
    stdout: "ignore",
    stderr: "ignore",
  });
  return p.exited;
}

/** Runs the scenario for bridge and ptp from `dir` in throwaway namespaces. */
export async function foreignInterface(dir: string): Promise<ForeignReport[]> {
  const out: ForeignReport[] = [];
  for (const plugin of ["bridge", "ptp"]) {
    const set = new NetnsSet("foreign");
    const dataDir = mkdtempSync(join(tmpdir(), "tscni-foreign-"));
    try {
      const host = await set.add("host");
      const ctr = await set.add("c");
      // A veth pair wholly inside the container: not what any ADD makes (no dummy driver is assumed).
      const made = Bun.spawnSync(["ip", "-n", ctr, "link", "add", "eth0", "type", "veth", "peer", "name", "other0"]);
      if (made.exitCode !== 0) throw new Error(`cannot make the foreign interface: ${made.stderr.toString()}`);
      const conf = {
        cniVersion: "0.4.0",
        name: "foreignnet",
        type: plugin,
        bridge: "tscnifor0",
        ipam: { type: "host-local", dataDir, ranges: [[{ subnet: "198.18.65.0/24" }]] },
      };
      const addExit = await call(host, dir, plugin, "ADD", NetnsSet.path(ctr), conf);
      const delExit = await call(host, dir, plugin, "DEL", NetnsSet.path(ctr), conf);
      const foreignSurvived = Bun.spawnSync(["ip", "-n", ctr, "link", "show", "eth0"]).exitCode === 0;
      out.push({ plugin, addExit, delExit, foreignSurvived });
    } finally {
      await set.cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return out;
}
