/**
 * ctnetlink deletion on the real kernel, in a throwaway namespace: UDP entries to the
 * port asked for go, entries to other ports stay. Root only.
 */
import { describe, expect, test } from "bun:test";
import { canUseRealKernel, createThrowawayNetns, deleteThrowawayNetns } from "../testing/throwaway.ts";
import { IPPROTO, deleteConntrackByDstPort } from "./conntrack.ts";

const root = canUseRealKernel();
if (!root && process.env.CI !== "true") console.warn("skipping the conntrack test: it needs root (CI runs it as root)");

function sh(ns: string, script: string): string {
  const r = Bun.spawnSync(["ip", "netns", "exec", ns, "bash", "-c", script], { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${script}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** The conntrack table of the namespace as /proc shows it, one entry a line. */
const table = (ns: string): string[] =>
  sh(ns, "cat /proc/net/nf_conntrack")
    .split("\n")
    .filter((l) => l !== "");

describe.skipIf(!root && process.env.CI !== "true")("deleteConntrackByDstPort", () => {
  test("deletes the UDP entries to the port and keeps those to other ports", async () => {
    const ns = createThrowawayNetns("ct");
    try {
      // A conntrack match makes the namespace track connections; each send leaves an entry behind.
      sh(ns.name, "iptables -t nat -A OUTPUT -m conntrack --ctstate NEW -j RETURN");
      sh(ns.name, "for p in 5300 5301; do echo x > /dev/udp/127.0.0.1/$p; done");
      const before = table(ns.name);
      expect(before.some((l) => l.includes("udp") && l.includes("dport=5300"))).toBe(true);
      expect(await deleteConntrackByDstPort(4, IPPROTO.udp, 5300, ns.path)).toBe(1);
      const after = table(ns.name);
      expect(after.some((l) => l.includes("udp") && l.includes("dport=5300"))).toBe(false);
      expect(after.some((l) => l.includes("udp") && l.includes("dport=5301"))).toBe(true);
      expect(await deleteConntrackByDstPort(4, IPPROTO.udp, 5300, ns.path)).toBe(0);
    } finally {
      deleteThrowawayNetns(ns);
    }
  });
});
