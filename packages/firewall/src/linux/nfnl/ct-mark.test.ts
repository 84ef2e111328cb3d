/**
 * Other `ct` keys and mark arithmetic over nfnetlink (ct-mark.ts): for fixtures/ct-mark.nft
 * our batch is byte for byte the one `nft -f` 1.0.6 sent (fixtures/capture.sh; sequence
 * numbers and our NLM_F_ACK aside), each rule prints back to its own text, and on the real
 * kernel, in a throwaway namespace, the tables our batch makes are what `nft -a -s list`
 * prints and our reader reads, so a user's conditions using them no longer go through `nft`.
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
import { decodeExpr } from "./expr.ts";
import { printRule } from "./print.ts";
import { attrList, readTable } from "./reader.ts";
import { batchBytes, NfnlSocket } from "./socket.ts";
import { normalizedBatch, stracedBytes } from "./testing/golden.ts";

const root = canUseRealKernel();
if (!root && process.env.CI === "true") throw new Error("the nfnetlink ct-mark test must run under CI: run it as root");
if (!root) console.warn("skipping the nfnetlink ct-mark test on the kernel: it needs root (CI runs it as root)");

const dir = join(import.meta.dir, "fixtures");
const script = readFileSync(join(dir, "ct-mark.nft"), "utf8");
const lines = script.split("\n").filter((l) => l !== "");
const rules = lines
  .map((l) => /^add rule (\S+) \S+ \S+ (.*)$/.exec(l))
  .filter((m): m is RegExpExecArray => m !== null)
  .map((m) => ({ family: m[1] as string, text: m[2] as string }));

describe("other ct keys and mark arithmetic over nfnetlink", () => {
  test("ct-mark.nft is the batch nft 1.0.6 sends, message for message", () => {
    const theirs = normalizedBatch(stracedBytes(join(dir, "ct-mark.batch.hex")));
    expect(theirs.length).toBe(lines.length + 2);
    expect(normalizedBatch(batchBytes(scriptMessages(script), 0))).toEqual(theirs);
  });

  test("every rule decodes and prints back to its own text", () => {
    expect(rules.length).toBeGreaterThan(15);
    for (const { family, text } of rules) {
      const bytes = lineMessage(`add rule ${family} t c ${text}`).build(1);
      const a = attrs(new DataView(bytes.buffer, bytes.byteOffset + 20, bytes.length - 20));
      expect(printRule(family, attrList(a.get(C.RULE.EXPRESSIONS) as DataView).map(decodeExpr))).toBe(text);
    }
  });

  test("other spellings, negated bit sets, prefixes and the wrong family are left to nft", () => {
    for (const [family, r] of [
      ["ip", "meta mark set mark or 0x2000"],
      ["ip", "meta mark set meta mark | 0x2000"],
      ["ip", "ct status != dnat"],
      ["ip", "ct status dnat,snat"],
      ["ip", "ct original ip saddr 198.18.0.0/24"],
      ["ip", "ct original ip6 saddr 2001:db8::1"],
      ["ip", 'ct helper "ftp"'],
      ["ip", "ct mark set 0x00000001"],
    ])
      expect(() => scriptMessages(`add rule ${family} t c ${r}\n`)).toThrow("unsupported");
  });

  test.skipIf(!root)("the tables our batch makes are what nft lists and our reader reads", async () => {
    await withThrowawayNetns(
      1,
      async ([ns]) => {
        const s = await NfnlSocket.open(ns?.path);
        try {
          s.batch(scriptMessages(script));
          const listedRules: string[] = [];
          for (const family of ["ip", "inet", "ip6"]) {
            const listed = parseNftList(
              inNetns(ns?.name ?? "", ["nft", "-a", "-s", "list", "table", family, "tscni_ctmark"]),
            );
            expect(readTable(s, family, "tscni_ctmark")).toEqual(listed);
            listedRules.push(...listed.flatMap((c) => c.rules.map((r) => r.rule)));
          }
          expect(listedRules).toEqual(rules.map((r) => r.text));
        } finally {
          s.close();
        }
      },
      "nfctmark",
    );
  });
});
