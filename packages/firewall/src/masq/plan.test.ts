import { describe, expect, test } from "bun:test";
import { parseCIDR } from "@tscni/spec/ipnet";
import { isMasqBackend, planMasqSetup, planMasqTeardown, unknownMasqBackend } from "./plan.ts";

describe("masquerade backend choice (H-3)", () => {
  test("knows exactly the two backends and names any other value as the reference does", () => {
    expect(["iptables", "nftables", "", "nft", "IPTABLES"].map(isMasqBackend)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(unknownMasqBackend("nft")).toBe('unknown ipmasq backend "nft"');
    expect(unknownMasqBackend("")).toBe('unknown ipmasq backend ""');
  });
});

describe("planMasqSetup and planMasqTeardown", () => {
  const ips = [parseCIDR("198.18.0.5/24")!];
  test("plan iptables operations only on the iptables backend and nft ones only on nftables", () => {
    expect(planMasqSetup("iptables", ips, "n", "eth0", "c").every((o) => o.op.startsWith("ipt."))).toBe(true);
    expect(planMasqTeardown("iptables", ips, "n", "eth0", "c").every((o) => o.op.startsWith("ipt."))).toBe(true);
    expect(planMasqSetup("nftables", ips, "n", "eth0", "c").every((o) => o.op.startsWith("nft."))).toBe(true);
    expect(planMasqTeardown("nftables", ips, "n", "eth0", "c").every((o) => o.op.startsWith("nft."))).toBe(true);
  });
});
