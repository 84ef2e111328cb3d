/**
 * Strict dump checking on the real kernel, in a throwaway namespace: with
 * NETLINK_GET_STRICT_CHK on, an address dump that names a link returns that link's
 * addresses only, so one link's read no longer grows with every veth of the host
 * (docs/PERFORMANCE.md). The driver's answer stays what the whole dump, filtered, gives.
 * Root only.
 */
import { describe, expect, test } from "bun:test";
import { libc } from "../libc.ts";
import { canUseRealKernel, createThrowawayNetns, deleteThrowawayNetns } from "../testing/throwaway.ts";
import { within } from "../netns.ts";
import * as K from "./constants.ts";
import { createNetlinkKernel } from "./driver.ts";
import { NetlinkSocket } from "./socket.ts";
import { MessageBuilder } from "./wire.ts";

const root = canUseRealKernel();
if (!root && process.env.CI !== "true")
  console.warn("skipping the strict dump test: it needs root (CI runs it as root)");

function sh(ns: string, script: string): string {
  const r = Bun.spawnSync(["ip", "netns", "exec", ns, "bash", "-c", script], { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${script}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** The ifa_index of every message an address dump for `index` (0: all) returns. */
async function addressDump(nsPath: string, index: number, strict: boolean): Promise<number[]> {
  const c = await libc();
  const s = within(c, nsPath, () => NetlinkSocket.open(c));
  try {
    if (strict) expect(s.strict()).toBe(true);
    const dump = new MessageBuilder(K.RTM_GETADDR, K.NLM_F_REQUEST | K.NLM_F_DUMP).fixed(8, (v, at) =>
      v.setUint32(at + 4, index, true),
    );
    return s.request(dump, K.RTM_NEWADDR).map((p) => p.getUint32(4, true));
  } finally {
    s.close();
  }
}

describe.skipIf(!root && process.env.CI !== "true")("an address dump under strict checking", () => {
  test("names one link and gets that link's addresses only, where a plain dump gets every link's", async () => {
    const ns = createThrowawayNetns("strict");
    try {
      sh(
        ns.name,
        "ip link add tsa type veth peer name tsb && ip addr add 198.18.0.1/24 dev tsa && ip addr add 2001:db8::1/64 dev tsa && ip addr add 198.18.1.1/24 dev tsb",
      );
      const index = Number(sh(ns.name, "cat /sys/class/net/tsa/ifindex").trim());
      const filtered = await addressDump(ns.path, index, true);
      expect(filtered.length).toBe(2);
      expect(filtered.every((i) => i === index)).toBe(true);
      // Without strict checking the kernel ignores the index and sends everything (lo, tsb too).
      const plain = await addressDump(ns.path, index, false);
      expect(plain.some((i) => i !== index)).toBe(true);

      const kernel = createNetlinkKernel();
      const all = await kernel.addresses(ns.path);
      expect(await kernel.addresses(ns.path, "tsa")).toEqual(all.filter((a) => a.dev === "tsa"));
      expect(await kernel.addresses(ns.path, "tsb")).toEqual(all.filter((a) => a.dev === "tsb"));
      expect(await kernel.addresses(ns.path, "missing")).toEqual([]);
    } finally {
      deleteThrowawayNetns(ns);
    }
  });
});
