import { describe, expect, test } from "bun:test";
import { backendWorks, defaultBackend } from "./backend.ts";
import { FakeFirewall } from "./fake/fake-firewall.ts";
import type { Firewall, FirewallBackend } from "./firewall.ts";

describe("defaultBackend (H-3, 8.5)", () => {
  test("is iptables when it works, nftables only when iptables does not and nftables does", async () => {
    expect(await defaultBackend(new FakeFirewall())).toBe("iptables");
    expect(await defaultBackend(new FakeFirewall({ support: { nftables: false } }))).toBe("iptables");
    expect(await defaultBackend(new FakeFirewall({ support: { iptables: false } }))).toBe("nftables");
    expect(await defaultBackend(new FakeFirewall({ support: { iptables: false, nftables: false } }))).toBe("iptables");
  });

  test("checks nftables only when iptables does not work", async () => {
    const asked: FirewallBackend[] = [];
    const fake = new FakeFirewall();
    const fw: Firewall = Object.assign(Object.create(fake) as FakeFirewall, {
      supports: async (b: FirewallBackend) => {
        asked.push(b);
        return b === "iptables";
      },
    });
    expect(await defaultBackend(fw)).toBe("iptables");
    expect(asked).toEqual(["iptables"]);
  });

  test("falls back to support() for a port without per-backend checks", async () => {
    const fake = new FakeFirewall({ support: { iptables: false } });
    const fw: Firewall = {
      support: () => fake.support(),
      apply: (tx) => fake.apply(tx),
      iptables: (f, t) => fake.iptables(f, t),
      nftTable: (f, t) => fake.nftTable(f, t),
    };
    expect(await backendWorks(fw, "iptables")).toBe(false);
    expect(await backendWorks(fw, "nftables")).toBe(true);
  });
});
