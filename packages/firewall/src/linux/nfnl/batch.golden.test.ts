/**
 * Golden tests of the nfnetlink writer: for the scripts in fixtures/ (every statement CNI
 * uses, table/chain/rule creation and deletion), our batch must be byte for byte the one
 * `nft -f` 1.0.6 sent (fixtures/capture.sh), apart from sequence numbers and the
 * NLM_F_ACK we add to every message (nft waits for errors only; we check each ack).
 * Each compiled rule also decodes and prints back to its own text (print.ts).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { attrs } from "@tscni/kernel/netlink";
import { lineMessage, scriptMessages } from "./batch.ts";
import * as C from "./const.ts";
import { normalizedBatch, stracedBytes } from "./testing/golden.ts";
import { decodeExpr } from "./expr.ts";
import { printRule } from "./print.ts";
import { attrList } from "./reader.ts";
import { batchBytes } from "./socket.ts";

const dir = join(import.meta.dir, "fixtures");
const script = (name: string): string => readFileSync(join(dir, `${name}.nft`), "utf8");

const hexDump = (name: string): Uint8Array => stracedBytes(join(dir, `${name}.batch.hex`));

const normalized = normalizedBatch;

describe("the nfnetlink batch", () => {
  for (const name of ["add", "delete"]) {
    test(`for ${name}.nft is the batch nft 1.0.6 sends, message for message`, () => {
      const ours = normalized(batchBytes(scriptMessages(script(name)), 0));
      const theirs = normalized(hexDump(name));
      expect(theirs.length).toBeGreaterThan(2);
      expect(ours).toEqual(theirs);
    });
  }

  test("asks the kernel to acknowledge every message inside the batch", () => {
    for (const line of script("add")
      .split("\n")
      .filter((l) => l !== "")) {
      const bytes = lineMessage(line).build(1);
      expect(new DataView(bytes.buffer, bytes.byteOffset).getUint16(6, true) & C.NLM_F.ACK).toBe(C.NLM_F.ACK);
    }
  });

  test("every rule of add.nft decodes and prints back to its own text", () => {
    const rules = script("add")
      .split("\n")
      .map((l) => /^(?:add|insert) rule (\S+) \S+ \S+ (.*?)(?: comment "[^"]*")?$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null);
    expect(rules.length).toBeGreaterThan(20);
    for (const [line, family, text] of rules) {
      const bytes = lineMessage(line as string).build(1);
      const a = attrs(new DataView(bytes.buffer, bytes.byteOffset + 20, bytes.length - 20));
      const list = a.get(C.RULE.EXPRESSIONS) as DataView;
      expect(printRule(family as string, attrList(list).map(decodeExpr))).toBe(text as string);
    }
  });

  test("a statement outside the compiled subset is refused before anything is sent", () => {
    expect(() => scriptMessages('add rule ip t c ct helper "ftp" accept\n')).toThrow("unsupported");
    expect(() => scriptMessages("add rule inet t c dnat ip to 198.18.0.5\n")).toThrow("unsupported");
    expect(() => scriptMessages("add rule ip t c ip saddr 198.18.0.5/24 accept\n")).toThrow("host bits");
  });
});
