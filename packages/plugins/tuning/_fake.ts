/**
 * Test helpers: a container namespace holding `eth0` (a veth whose peer is on the host)
 * on a fake kernel the test creates (only tests may import @tscni/sim), and tuning run on
 * a kernel through the plugin framework with its backups in a temporary data dir.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOST, type Kernel, type KernelBatch } from "@tscni/kernel";
import { pluginMain, type PluginIO } from "@tscni/skel";
import { tuningDefinition } from "./index.ts";

/** The container namespace of the fake kernel. */
export const NS = "/var/run/netns/tscni-tuning-fake";

/** Gives a fresh fake kernel a container namespace with `eth0`, up, and `lo`. */
export function withEth0<K extends { addNetns(path: string): void; applySync(batch: KernelBatch): void }>(k: K): K {
  k.addNetns(NS);
  k.applySync([
    { op: "veth.add", ns: NS, name: "eth0", mac: "02:00:00:00:10:01", peer: { name: "veth1", ns: HOST } },
    { op: "link.set", ns: NS, name: "eth0", up: true },
  ]);
  return k;
}

/** A fresh data dir for backups. */
export function dataDir(): string {
  return join(mkdtempSync(join(tmpdir(), "tscni-tuning-")), "data");
}

/** A prevResult naming eth0 in the container, as bridge would hand it on. */
export const PREV = {
  cniVersion: "1.0.0",
  interfaces: [{ name: "veth1" }, { name: "eth0", sandbox: NS }],
  ips: [{ address: "198.18.0.5/24", interface: 1 }],
};

/** Runs tuning with `config` on the fake kernel; `allowlist` is the allowlist file's text. */
export async function runTuning(
  kernel: Kernel,
  command: string,
  config: Record<string, unknown>,
  opts: { args?: string; allowlist?: string } = {},
) {
  let stdout = "";
  const io: PluginIO = {
    env: {
      CNI_COMMAND: command,
      CNI_CONTAINERID: "ctr1",
      CNI_NETNS: NS,
      CNI_IFNAME: "eth0",
      CNI_PATH: "/opt/cni/bin",
      CNI_ARGS: opts.args ?? "",
    },
    readStdin: async () => new TextEncoder().encode(JSON.stringify(config)),
    stdout: (s) => void (stdout += s),
    stderr: () => {},
  };
  const def = tuningDefinition({ kernel, readAllowlist: () => opts.allowlist, warn: () => {} });
  const code = await pluginMain(def, io, { sameNetns: () => false });
  return { code, stdout, json: () => JSON.parse(stdout) as Record<string, unknown> };
}
