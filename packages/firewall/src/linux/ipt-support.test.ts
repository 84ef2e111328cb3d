/**
 * SupportsIPTables without a process (ipt-support.ts, SPEC H-3 §8.5): for iptables-nft
 * the in-process GETGEN gives the reference's answer, which counts `iptables -t filter -S
 * INPUT 1 --wait` exiting 0 or 1 as "iptables works". Checked against the real tool in
 * throwaway namespaces: a fresh one (0), one whose `filter` table nft made incompatible
 * (1: still works for the reference), and one seen without CAP_NET_ADMIN (4: does not).
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canUseRealKernel, withThrowawayNetns } from "@tscni/kernel/testing";
import { countingLinuxFirewall, inNetns, iptablesVariantDir } from "../testing/linux.ts";
import { iptablesVariant, nfGenerationAnswered } from "./ipt-support.ts";

const root = canUseRealKernel();
if (!root && process.env.CI === "true") throw new Error("the iptables support test must run under CI: run it as root");
if (!root) console.warn("skipping the iptables support test on the kernel: it needs root (CI runs it as root)");

const CHILD = join(import.meta.dir, "ipt-support.child.ts");

/** The exit status of the reference's command in namespace `ns`, optionally without CAP_NET_ADMIN. */
function referenceStatus(ns: string, unprivileged = false): number {
  const argv = ["iptables-nft", "-t", "filter", "-S", "INPUT", "1", "--wait"];
  const r = Bun.spawnSync(["ip", "netns", "exec", ns, ...(unprivileged ? ["unshare", "-U", "-r"] : []), ...argv], {
    stdout: "ignore",
    stderr: "ignore",
  });
  return r.exitCode ?? -1;
}
/** go-iptables' ChainExists: 0 exists, 1 does not; either way the check worked. */
const referenceWorks = (status: number): boolean => status === 0 || status === 1;

describe("iptables support detection", () => {
  test("names the multi-call binary behind a link, and nothing else", () => {
    const dir = mkdtempSync(join(tmpdir(), "tscni-iptvariant-"));
    try {
      writeFileSync(join(dir, "wrapper"), '#!/bin/sh\nexec iptables-nft "$@"\n', { mode: 0o755 });
      symlinkSync(join(dir, "missing"), join(dir, "dangling"));
      expect(iptablesVariant("/usr/sbin/iptables-nft")).toBe("nft");
      expect(iptablesVariant("/usr/sbin/iptables-legacy")).toBe("legacy");
      expect(iptablesVariant(join(dir, "wrapper"))).toBeUndefined();
      expect(iptablesVariant(join(dir, "dangling"))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test.skipIf(!root)(
    "in a fresh namespace and with an incompatible filter table, both answer that iptables works",
    async () => {
      await withThrowawayNetns(
        1,
        async ([ns]) => {
          const [name, path] = [ns?.name ?? "", ns?.path ?? ""];
          expect(referenceStatus(name)).toBe(0);
          expect(await nfGenerationAnswered(path)).toBe(true);
          inNetns(
            name,
            ["nft", "-f", "-"],
            "table ip filter {\n chain INPUT {\n type filter hook input priority 0 ;\n ct original ip saddr 198.18.0.1 counter\n }\n}\n",
          );
          // iptables-nft refuses the table with status 1, which the reference still counts as working.
          expect(referenceStatus(name)).toBe(1);
          expect(await nfGenerationAnswered(path)).toBe(referenceWorks(1));
          // A wrapper script is run, and its status 1 counts as working there too.
          const dir = mkdtempSync(join(tmpdir(), "tscni-iptwrap-"));
          try {
            writeFileSync(join(dir, "iptables"), '#!/bin/sh\nexec iptables-nft "$@"\n', { mode: 0o755 });
            for (const t of ["iptables-save", "iptables-restore"]) symlinkSync(`/usr/sbin/${t}`, join(dir, t));
            const { fw, runs } = await countingLinuxFirewall(path, dir);
            expect(await fw.supports?.("iptables")).toBe(true);
            expect(runs).toEqual(["iptables"]);
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        },
        "iptsup",
      );
    },
  );

  test.skipIf(!root)("without CAP_NET_ADMIN over the namespace, both answer that iptables does not work", async () => {
    await withThrowawayNetns(
      1,
      async ([ns]) => {
        const name = ns?.name ?? "";
        const status = referenceStatus(name, true);
        expect(status).toBe(4);
        const child = Bun.spawnSync(["ip", "netns", "exec", name, "unshare", "-U", "-r", process.execPath, CHILD], {
          stderr: "pipe",
        });
        expect(child.stderr.toString()).toBe("");
        expect(JSON.parse(child.stdout.toString())).toBe(referenceWorks(status));
      },
      "iptsup",
    );
  });

  test.skipIf(!root)("the firewall asks iptables-nft in process and runs iptables-legacy", async () => {
    await withThrowawayNetns(
      1,
      async ([ns]) => {
        for (const variant of ["nft", "legacy"] as const) {
          const tools = iptablesVariantDir(variant);
          try {
            const { fw, runs } = await countingLinuxFirewall(ns?.path ?? "", tools.dir);
            expect(await fw.supports?.("iptables")).toBe(true);
            expect(runs).toEqual(variant === "nft" ? [] : ["iptables"]);
          } finally {
            tools.cleanup();
          }
        }
      },
      "iptsup",
    );
  });
});
