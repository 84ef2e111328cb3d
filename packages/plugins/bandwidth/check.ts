/**
 * bandwidth's CHECK (the reference's cmdCheck): the qdiscs of the host end (ingress limit)
 * and of the ifb (egress limit) are walked in dump order, pfifo_fast left out; none at all
 * fails, and each tbf before the first other kind must carry the expected rate, limit and
 * buffer. Like the reference, a missing tbf behind another root qdisc is not noticed.
 */
import type { QdiscInfo } from "@tscni/kernel";
import { tbfParams } from "./tbf.ts";

/** Fails with the reference's message when `qdiscs` do not carry the limit of `rate`/`burst` bits. */
export function checkTbf(qdiscs: readonly QdiscInfo[], rateInBits: number, burstInBits: number): void {
  const want = tbfParams(rateInBits, burstInBits);
  // SafeQdiscList: older kernels do not list pfifo_fast, so it never counts.
  const listed = qdiscs.filter((q) => q.kind !== "pfifo_fast");
  if (listed.length === 0) throw new Error("Failed to find qdisc");
  for (const q of listed) {
    if (q.kind !== "tbf" || q.tbf === undefined) break;
    if (q.tbf.rate !== want.rate) throw new Error("Rate doesn't match");
    if (q.tbf.limit !== want.limit) throw new Error("Limit doesn't match");
    if (q.tbf.buffer !== want.buffer) throw new Error("Buffer doesn't match");
  }
}
