import { describe, expect, test } from "bun:test";
import { parseCIDR } from "@tscni/spec/ipnet";
import { FirewallError, type Firewall, type FirewallSupport } from "../firewall.ts";
import type { FirewallTx } from "../ops.ts";
import { setupMasq, teardownMasq } from "./run.ts";

/** A firewall that records transactions and fails those of the backends in `broken`. */
function recording(support: FirewallSupport, broken: ReadonlySet<string> = new Set()) {
  const applied: FirewallTx[] = [];
  let probes = 0;
  const fw: Firewall = {
    support: async () => {
      probes++;
      return support;
    },
    apply: async (tx) => {
      const backend = tx[0]?.op.startsWith("ipt.") ? "iptables" : "nftables";
      if (broken.has(backend)) throw new FirewallError(`${backend} is broken`);
      applied.push(tx);
    },
    iptables: async () => undefined,
    nftTable: async () => undefined,
  };
  return { fw, applied, probes: () => probes };
}

const ips = [parseCIDR("198.18.0.5/24")!];
const who = { net: "mynet", ifName: "eth0", cid: "ctr1" };

describe("setupMasq", () => {
  test("uses the configured backend without probing", async () => {
    const r = recording({ iptables: true, nftables: true });
    expect(await setupMasq(r.fw, "nftables", ips, who)).toBe("nftables");
    expect(r.probes()).toBe(0);
    expect(r.applied[0]?.[0]?.op).toBe("nft.table.ensure");
  });

  test("picks nftables when unset and only nftables works, iptables otherwise (H-3)", async () => {
    const nftOnly = recording({ iptables: false, nftables: true }, new Set(["iptables"]));
    expect(await setupMasq(nftOnly.fw, undefined, ips, who)).toBe("nftables");
    expect(await setupMasq(recording({ iptables: true, nftables: true }).fw, undefined, ips, who)).toBe("iptables");
  });

  test("when unset, probes nothing while iptables works, and keeps iptables' error when it should work", async () => {
    const fine = recording({ iptables: true, nftables: true });
    await setupMasq(fine.fw, undefined, ips, who);
    expect(fine.probes()).toBe(0);
    const broken = recording({ iptables: true, nftables: true }, new Set(["iptables"]));
    await expect(setupMasq(broken.fw, undefined, ips, who)).rejects.toThrow("iptables is broken");
    expect(broken.applied.some((tx) => tx.some((o) => o.op.startsWith("nft.")))).toBe(false);
  });

  test("fails with the backend's error", async () => {
    const r = recording({ iptables: true, nftables: true }, new Set(["iptables"]));
    await expect(setupMasq(r.fw, "iptables", ips, who)).rejects.toThrow("iptables is broken");
  });
});

describe("teardownMasq", () => {
  test("tries both backends, iptables first, probing nothing when both succeed", async () => {
    const r = recording({ iptables: true, nftables: true });
    await teardownMasq(r.fw, ips, who);
    expect(r.applied.map((tx) => tx[0]?.op.slice(0, 4))).toEqual(["ipt.", "nft."]);
    expect(r.probes()).toBe(0);
  });

  test("ignores the failure of a backend that does not work here", async () => {
    const r = recording({ iptables: true, nftables: false }, new Set(["nftables"]));
    await teardownMasq(r.fw, ips, who);
    expect(r.applied).toHaveLength(1);
  });

  test("reports the failures of working backends joined by newlines, after trying both", async () => {
    const r = recording({ iptables: true, nftables: true }, new Set(["iptables", "nftables"]));
    await expect(teardownMasq(r.fw, ips, who)).rejects.toThrow("iptables is broken\nnftables is broken");
  });
});

describe("setupMasq after a partial failure", () => {
  test("removes what the failed setup made before rethrowing", async () => {
    let calls = 0;
    const applied: FirewallTx[] = [];
    const fw: Firewall = {
      support: async () => ({ iptables: true, nftables: true }),
      apply: async (tx) => {
        applied.push(tx);
        if (calls++ === 0) throw new FirewallError("ip6tables-restore: line 3 failed");
      },
      iptables: async () => undefined,
      nftTable: async () => undefined,
    };
    const dual = [parseCIDR("198.18.0.5/24")!, parseCIDR("2001:db8::5/64")!];
    await expect(setupMasq(fw, "iptables", dual, who)).rejects.toThrow("ip6tables-restore");
    expect(applied).toHaveLength(2);
    expect(applied[1]?.filter((o) => o.op === "ipt.chain.remove").map((o) => o.family)).toEqual([4, 6]);
  });
});
