/**
 * SupportsNFTables over nfnetlink (support.ts): the question is the batch `nft --check`
 * 1.0.6 sends for the same script, byte for byte (fixtures/check.batch.hex, captured by
 * fixtures/capture.sh; sequence numbers and our NLM_F_ACK aside); on the real kernel, in
 * a throwaway namespace, the answer is yes, nothing is made, no process runs, and a
 * check the kernel refuses comes back as a refusal.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { canUseRealKernel, withThrowawayNetns } from "@tscni/kernel/testing";
import { inNetns } from "../../testing/linux.ts";
import { createLinuxFirewall } from "../linux-firewall.ts";
import { lineMessage } from "./batch.ts";
import { normalizedBatch, stracedBytes } from "./testing/golden.ts";
import { batchBytes, NfnlSocket } from "./socket.ts";
import { nfnlSupportsNftables, SUPPORT_CHECKS } from "./support.ts";

const root = canUseRealKernel();
if (!root && process.env.CI === "true") throw new Error("the nfnetlink support test must run under CI: run it as root");
if (!root) console.warn("skipping the nfnetlink support test on the kernel: it needs root (CI runs it as root)");

const hexDump = (name: string): Uint8Array => stracedBytes(join(import.meta.dir, "fixtures", name));

const normalized = normalizedBatch;

describe("SupportsNFTables over nfnetlink", () => {
  test("asks with the batch nft --check sends: BEGIN and the table, no END", () => {
    const script = readFileSync(join(import.meta.dir, "fixtures", "check.nft"), "utf8").trim();
    expect(script).toBe(SUPPORT_CHECKS[0]);
    const theirs = normalized(hexDump("check.batch.hex"));
    expect(theirs.length).toBe(2);
    expect(normalized(batchBytes([lineMessage(script)], 0, false))).toEqual(theirs);
  });

  test.skipIf(!root)("says yes on this kernel, makes nothing, runs nothing, and reports a refused check", async () => {
    await withThrowawayNetns(
      1,
      async ([ns]) => {
        const s = await NfnlSocket.open(ns?.path);
        try {
          expect(nfnlSupportsNftables(s)).toBe(true);
          expect(inNetns(ns?.name ?? "", ["nft", "list", "ruleset"]).trim()).toBe("");
          // A chain in a table that does not exist: the kernel refuses it, even when only checking.
          expect(() => s.batch([lineMessage("add chain ip no_such_table c")], true)).toThrow();
        } finally {
          s.close();
        }
        const runs: string[] = [];
        const fw = await createLinuxFirewall({
          netns: ns?.path ?? "",
          nftTransport: "nfnetlink",
          wrapExec: (exec) => (argv, stdin) => {
            runs.push(argv.join(" "));
            return exec(argv, stdin);
          },
        });
        expect(await fw.supports?.("nftables")).toBe(true);
        expect(runs).toEqual([]);
      },
      "nfsupport",
    );
  });
});
