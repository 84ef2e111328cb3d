/**
 * Random ADDs and DELs of containers with ipMasq on bridge and ptp, each container on a
 * random backend (iptables, nftables or unset), some ADDs failing on an injected
 * firewall error: every live container has exactly its own rules, none shared with
 * another (H-3: chain by net + id, nft rule by instance hash), and after every DEL the
 * firewall is back to its baseline (nft keeps only the shared, empty skeleton).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { FakeFirewall } from "@tscni/firewall/fake";
import { PluginHarness } from "./plugin-harness.ts";

type Backend = "iptables" | "nftables" | undefined;
type Cmd = { kind: "add"; id: number; backend: Backend; fail: boolean } | { kind: "del"; id: number };

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({
    kind: fc.constant("add" as const),
    id: fc.integer({ min: 0, max: 5 }),
    backend: fc.constantFrom<Backend>("iptables", "nftables", undefined),
    fail: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("del" as const), id: fc.integer({ min: 0, max: 5 }) }),
);

const NS = (id: number) => `/var/run/netns/q${id}`;

async function runModel(plugin: "bridge" | "ptp", cmds: Cmd[]): Promise<void> {
  const fw = new FakeFirewall();
  const h = new PluginHarness({ seed: 3, firewall: fw });
  const config = (backend: Backend) => ({
    cniVersion: "1.1.0",
    name: "qnet",
    type: plugin,
    isGateway: true,
    ipMasq: true,
    ...(backend === undefined ? {} : { ipMasqBackend: backend }),
    ipam: { type: "host-local", ranges: [[{ subnet: "198.18.30.0/24" }], [{ subnet: "2001:db8:30::/64" }]] },
  });
  /** Live containers and the backend their rules are on. */
  const live = new Map<number, "iptables" | "nftables">();
  for (let i = 0; i < 6; i++) h.kernel.addNetns(NS(i));
  for (const c of cmds) {
    const inv = { containerID: `q${c.id}`, netns: NS(c.id) };
    if (c.kind === "add") {
      if (live.has(c.id)) continue;
      fw.failWhen = c.fail
        ? (op) => (op.op === "ipt.rule.append" || op.op === "nft.rule.add" ? "injected" : undefined)
        : undefined;
      const r = await h.run(plugin, "ADD", { ...inv, config: config(c.backend) });
      fw.failWhen = undefined;
      expect(r.code).toBe(c.fail ? 1 : 0);
      if (!c.fail) live.set(c.id, c.backend ?? "iptables");
    } else {
      expect((await h.run(plugin, "DEL", { ...inv, config: config(undefined) })).code).toBe(0);
      live.delete(c.id);
    }
    // Exactly the live containers' rules: one chain each (3 rules per family), two nft rules each.
    const d = fw.dump();
    const ipt = [...live.values()].filter((b) => b === "iptables").length;
    const nft = [...live.values()].filter((b) => b === "nftables").length;
    for (const fam of ["4 nat", "6 nat"]) {
      const chains = Object.entries(d.iptables[fam] ?? {}).filter(([n]) => n.startsWith("CNI-"));
      expect(chains).toHaveLength(ipt);
      expect(chains.every(([, rules]) => rules.length === 2)).toBe(true);
      expect(d.iptables[fam]?.POSTROUTING ?? []).toHaveLength(ipt);
    }
    const rules = d.nftables["inet cni_plugins_masquerade"]?.masq_checks ?? [];
    expect(rules).toHaveLength(2 * nft);
    // Each nft container's rules carry its own id, and no rule is shared.
    for (const [id, b] of live)
      if (b === "nftables") expect(rules.filter((r) => r.includes(`id: q${id}"`))).toHaveLength(2);
  }
  for (const id of live.keys())
    expect((await h.run(plugin, "DEL", { containerID: `q${id}`, netns: NS(id), config: config(undefined) })).code).toBe(
      0,
    );
  const d = fw.dump();
  expect(d.iptables).toEqual({});
  for (const table of Object.values(d.nftables)) expect(table.masq_checks ?? []).toEqual([]);
  expect(h.reserved("qnet")).toEqual([]);
}

describe("ipMasq model", () => {
  test.each(["bridge", "ptp"] as const)(
    "random %s ADDs and DELs on both backends keep every container's rules its own and end at the baseline",
    async (plugin) => {
      await fc.assert(
        fc.asyncProperty(fc.array(cmd, { maxLength: 25 }), (cmds) => runModel(plugin, cmds)),
        { numRuns: 40 },
      );
    },
  );
});
