import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { normalizedBatch, stracedBytes } from "./golden.ts";

/** One netlink header (16 bytes, little-endian) with a 4-byte body. */
function message(type: number, flags: number, seq: number, body: number): Uint8Array {
  const m = new DataView(new ArrayBuffer(20));
  m.setUint32(0, 20, true);
  m.setUint16(4, type, true);
  m.setUint16(6, flags, true);
  m.setUint32(8, seq, true);
  m.setUint32(12, 4242, true);
  m.setUint32(16, body, true);
  return new Uint8Array(m.buffer);
}

test("a batch normalises to one hex string per message, sequence zeroed and only NLM_F_ACK cleared", () => {
  const batch = new Uint8Array(40);
  batch.set(message(0x10, 0x0001 | 0x0004 | 0x0400, 7, 0xaabbccdd), 0);
  batch.set(message(0x11, 0x0001, 8, 1), 20);
  expect(normalizedBatch(batch)).toEqual([
    "14000000" + "1000" + "0104" + "00000000" + "92100000" + "ddccbbaa",
    "14000000" + "1100" + "0100" + "00000000" + "92100000" + "01000000",
  ]);
});

test("strace's hex dump reads back to its bytes, ascii column and other lines ignored", () => {
  const dir = mkdtempSync(join(tmpdir(), "tscni-golden-"));
  try {
    const file = join(dir, "x.batch.hex");
    writeFileSync(
      file,
      [
        'sendmsg(3, {msg_iov=[{iov_base="\\x14"...}]}) = 20',
        " | 00000  14 00 00 00 10 00 05 00  07 00 00 00 00 00 00 00  ................ |",
        " | 00010  dd cc                                             ..               |",
      ].join("\n"),
    );
    expect([...stracedBytes(file)]).toEqual([0x14, 0, 0, 0, 0x10, 0, 5, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0xdd, 0xcc]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
