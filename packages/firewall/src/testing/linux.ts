/**
 * Helpers for real-kernel firewall tests: a directory whose `iptables*` tools are the
 * iptables-nft or the iptables-legacy variant (give it to createLinuxFirewall's `path`),
 * and running a tool inside a test namespace. Never used on the plugin path.
 */
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLinuxFirewall } from "../linux/index.ts";

/** The two iptables implementations a node may run. */
export type IptablesVariant = "nft" | "legacy";

const NAMES = ["iptables", "iptables-save", "iptables-restore", "ip6tables", "ip6tables-save", "ip6tables-restore"];

/** A temporary directory of links to the variant's tools, and its removal. */
export function iptablesVariantDir(variant: IptablesVariant): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `tscni-ipt-${variant}-`));
  for (const name of NAMES) {
    const [base, ...rest] = name.split("-");
    // iptables-save -> iptables-legacy-save: the multi-call binary dispatches on argv[0]'s
    // name, and keeps the variant because the link target names it.
    const target = `/usr/sbin/${[`${base}-${variant}`, ...rest].join("-")}`;
    symlinkSync(target, join(dir, name));
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs argv inside the namespace named `ns` with `ip netns exec`; throws on failure. */
export function inNetns(ns: string, argv: readonly string[], stdin?: string): string {
  const r = Bun.spawnSync(["ip", "netns", "exec", ns, ...argv], {
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr.toString().trim()}`);
  return r.stdout.toString();
}

/**
 * A real firewall in the namespace at `netnsPath` with the tools of `toolsDir`, and the
 * names of the tools each `apply` ran (to prove how many processes a change costs).
 */
export async function countingLinuxFirewall(
  netnsPath: string,
  toolsDir: string,
): Promise<{ fw: Awaited<ReturnType<typeof createLinuxFirewall>>; runs: string[] }> {
  const runs: string[] = [];
  const fw = await createLinuxFirewall({
    netns: netnsPath,
    path: toolsDir,
    wrapExec: (exec) => (argv, stdin) => {
      runs.push((argv[0] ?? "").split("/").pop() ?? "");
      return exec(argv, stdin);
    },
  });
  return { fw, runs };
}

export {
  nfnlApplyAndRead,
  nfnlBatchBytes,
  nfnlPrintBack,
  nfnlRefusal,
  normalizedBatch,
  stracedBytes,
} from "./nfnl.ts";
