/**
 * Reading the golden nfnetlink batches that `fixtures/capture.sh` records from `nft -f`
 * under strace, and comparing them with ours. Never used on the plugin path.
 */
import { readFileSync } from "node:fs";
import * as C from "../const.ts";

/** strace's hex dump (` | 00000  14 00 ...  ascii |`) in the file at `path`, back to bytes. */
export function stracedBytes(path: string): Uint8Array {
  const bytes: number[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const m = /^ \| [0-9a-f]{5} {2}(.{48})/.exec(line);
    if (m === null) continue;
    for (const h of (m[1] as string).trim().split(/\s+/)) if (h !== "") bytes.push(Number.parseInt(h, 16));
  }
  return Uint8Array.from(bytes);
}

/** The messages of a batch as hex, sequence numbers zeroed and NLM_F_ACK cleared. */
export function normalizedBatch(batch: Uint8Array): string[] {
  const out: string[] = [];
  const v = new DataView(batch.buffer, batch.byteOffset, batch.byteLength);
  for (let at = 0; at + 16 <= batch.length; ) {
    const len = v.getUint32(at, true);
    const m = batch.slice(at, at + len);
    const mv = new DataView(m.buffer);
    mv.setUint16(6, mv.getUint16(6, true) & ~C.NLM_F.ACK, true);
    mv.setUint32(8, 0, true);
    out.push(Buffer.from(m).toString("hex"));
    at += (len + 3) & ~3;
  }
  return out;
}
