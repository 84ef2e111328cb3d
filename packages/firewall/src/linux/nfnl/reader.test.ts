/**
 * The nfnetlink reader and batch on the real kernel, in a throwaway namespace: a table
 * made by `nft -f` (fixtures/add.nft, every statement CNI uses) reads back over nfnetlink
 * exactly as `nft -a -s list table` parses (rule text, comments, handles); our batch for
 * delete.nft leaves what nft's own left (fixtures/after.txt); a refused batch changes
 * nothing and reports the kernel's reason.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { canUseRealKernel, withThrowawayNetns } from "@tscni/kernel/testing";
import { parseNftList } from "../nft-list.ts";
import { inNetns } from "../../testing/linux.ts";
import { scriptMessages } from "./batch.ts";
import { readTable } from "./reader.ts";
import { NfnlSocket } from "./socket.ts";

const root = canUseRealKernel();
if (!root && process.env.CI === "true") throw new Error("the nfnetlink tests must run under CI: run them as root");
if (!root) console.warn("skipping the nfnetlink real-kernel tests: they need root (CI runs them as root)");

const fixture = (name: string): string => readFileSync(join(import.meta.dir, "fixtures", name), "utf8");
const TABLES = [
  ["inet", "cni_plugins_masquerade"],
  ["ip", "cni_hostport"],
  ["ip6", "cni_hostport"],
  ["bridge", "nat"],
] as const;

describe.skipIf(!root)("nf_tables over nfnetlink", () => {
  test("reads every table nft made exactly as nft lists it, comments and handles included", async () => {
    await withThrowawayNetns(
      1,
      async ([ns]) => {
        inNetns(ns?.name ?? "", ["nft", "-f", "-"], fixture("add.nft"));
        const s = await NfnlSocket.open(ns?.path);
        try {
          for (const [family, table] of TABLES) {
            const theirs = parseNftList(inNetns(ns?.name ?? "", ["nft", "-a", "-s", "list", "table", family, table]));
            expect(theirs.flatMap((c) => c.rules).length).toBeGreaterThan(0);
            expect(readTable(s, family, table)).toEqual(theirs);
          }
          expect(readTable(s, "ip", "missing")).toBeUndefined();
        } finally {
          s.close();
        }
      },
      "nfnl",
    );
  });

  test("our batches for add.nft then delete.nft leave the ruleset nft's own left", async () => {
    await withThrowawayNetns(
      1,
      async ([ns]) => {
        const s = await NfnlSocket.open(ns?.path);
        try {
          s.batch(scriptMessages(fixture("add.nft")));
          s.batch(scriptMessages(fixture("delete.nft")));
        } finally {
          s.close();
        }
        expect(inNetns(ns?.name ?? "", ["nft", "-a", "-s", "list", "ruleset"])).toBe(fixture("after.txt"));
      },
      "nfnl",
    );
  });

  test("a refused batch applies nothing and says why", async () => {
    await withThrowawayNetns(
      1,
      async ([ns]) => {
        const s = await NfnlSocket.open(ns?.path);
        try {
          const bad = "add table ip t\nadd chain ip t c\nadd rule ip t c accept\nadd rule ip t c jump nowhere\n";
          expect(() => s.batch(scriptMessages(bad))).toThrow("No such file or directory");
          expect(readTable(s, "ip", "t")).toBeUndefined();
        } finally {
          s.close();
        }
      },
      "nfnl",
    );
  });
});
