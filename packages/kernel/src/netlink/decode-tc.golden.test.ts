/**
 * decodeQdiscs against the kernel's own answer: fixtures/reference-tc.json keeps the
 * RTM_NEWQDISC replies `tc qdisc show` read after each reference ADD (capture-tc.ts), and
 * each device's decoded qdiscs must be exactly what that ADD's ops put there (the tbf's
 * rate, limit and buffer as CHECK compares them, the 64-bit rate included). Pure.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { QdiscInfo } from "../ops-tc.ts";
import { decodeQdiscs } from "./decode-tc.ts";
import { HOST_VETH, IFB, TC_CASES } from "./fixtures/sequence-tc.ts";

const golden = JSON.parse(readFileSync(new URL("./fixtures/reference-tc.json", import.meta.url), "utf8")) as {
  cases: { name: string; indexesAfter: Record<string, number>; dump: string[] }[];
};

const payloads = (dump: string[]): DataView[] =>
  dump.map((h) => {
    const b = Buffer.from(h, "hex");
    return new DataView(b.buffer, b.byteOffset + 16, b.length - 16);
  });

describe("decodeQdiscs against the kernel's dump after the reference's ADD", () => {
  for (const [i, c] of TC_CASES.entries()) {
    const cap = golden.cases[i]!;
    for (const dev of [HOST_VETH, IFB]) {
      const index = cap.indexesAfter[dev];
      if (index === undefined) continue;
      test(`"${c.name}": ${dev} reads as the qdiscs the ADD made`, () => {
        const want: QdiscInfo[] = c.add.flatMap((op) =>
          op.op === "qdisc.add" && op.dev === dev
            ? [
                {
                  dev,
                  kind: op.kind,
                  handle: op.handle,
                  parent: op.parent,
                  ...(op.tbf !== undefined && { tbf: op.tbf }),
                },
              ]
            : [],
        );
        // The host veth without an ingress limit keeps its default noqueue root, dumped first.
        const got = decodeQdiscs(payloads(cap.dump), index, dev).filter((q) => q.kind !== "noqueue");
        expect(got).toEqual(want);
      });
    }
  }

  test("every case's dump has the qdiscs of its namespace and no other device's", () => {
    for (const cap of golden.cases) {
      const all = Object.entries(cap.indexesAfter).flatMap(([dev, index]) =>
        decodeQdiscs(payloads(cap.dump), index, dev),
      );
      expect(all).toHaveLength(cap.dump.length);
    }
  });
});
