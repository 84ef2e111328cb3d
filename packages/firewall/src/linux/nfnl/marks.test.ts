/**
 * `meta mark` and `ct state` over nfnetlink (marks.ts): for fixtures/marks.nft our batch
 * is byte for byte the one `nft -f` 1.0.6 sent (fixtures/capture.sh; sequence numbers and
 * our NLM_F_ACK aside), each rule prints back to its own text, and on the real kernel, in
 * a throwaway namespace, the table our batch makes is the one `nft -a -s list` prints and
 * our reader reads, so these rules no longer go through `nft`.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { attrs } from "@tscni/kernel/netlink";
import { canUseRealKernel, withThrowawayNetns } from "@tscni/kernel/testing";
import { inNetns } from "../../testing/linux.ts";
import { parseNftList } from "../nft-list.ts";
import { lineMessage, scriptMessages } from "./batch.ts";
import * as C from "./const.ts";
import { normalizedBatch, stracedBytes } from "./testing/golden.ts";
import { decodeExpr } from "./expr.ts";
import { printRule } from "./print.ts";
import { attrList, readTable } from "./reader.ts";
import { batchBytes, NfnlSocket } from "./socket.ts";

const root = canUseRealKernel();
if (!root && process.env.CI === "true") throw new Error("the nfnetlink marks test must run under CI: run it as root");
if (!root) console.warn("skipping the nfnetlink marks test on the kernel: it needs root (CI runs it as root)");

const dir = join(import.meta.dir, "fixtures");
const script = readFileSync(join(dir, "marks.nft"), "utf8");

const hexDump = (name: string): Uint8Array => stracedBytes(join(dir, name));

const normalized = normalizedBatch;

const rules = script
  .split("\n")
  .map((l) => /^add rule ip \S+ \S+ (.*)$/.exec(l)?.[1])
  .filter((r): r is string => r !== undefined);

describe("meta mark and ct state over nfnetlink", () => {
  test("marks.nft is the batch nft 1.0.6 sends, message for message", () => {
    const theirs = normalized(hexDump("marks.batch.hex"));
    expect(theirs.length).toBe(rules.length + 4);
    expect(normalized(batchBytes(scriptMessages(script), 0))).toEqual(theirs);
  });

  test("every rule decodes and prints back to its own text", () => {
    for (const text of rules) {
      const bytes = lineMessage(`add rule ip t c ${text}`).build(1);
      const a = attrs(new DataView(bytes.buffer, bytes.byteOffset + 20, bytes.length - 20));
      expect(printRule("ip", attrList(a.get(C.RULE.EXPRESSIONS) as DataView).map(decodeExpr))).toBe(text);
    }
  });

  test("other spellings and states out of nft's order are left to nft", () => {
    for (const r of [
      "meta mark 0x2000",
      "ct state related,established",
      "ct state != new",
      "meta mark set mark or 0x1",
    ])
      expect(() => scriptMessages(`add rule ip t c ${r}\n`)).toThrow("unsupported");
  });

  test.skipIf(!root)("the table our batch makes is what nft lists and our reader reads", async () => {
    await withThrowawayNetns(
      1,
      async ([ns]) => {
        const s = await NfnlSocket.open(ns?.path);
        try {
          s.batch(scriptMessages(script));
          const listed = parseNftList(
            inNetns(ns?.name ?? "", ["nft", "-a", "-s", "list", "table", "ip", "tscni_marks"]),
          );
          expect(listed.flatMap((c) => c.rules.map((r) => r.rule))).toEqual(rules);
          expect(readTable(s, "ip", "tscni_marks")).toEqual(listed);
        } finally {
          s.close();
        }
      },
      "nfmarks",
    );
  });
});
