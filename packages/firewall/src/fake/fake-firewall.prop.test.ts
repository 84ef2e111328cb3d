import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { Family, FirewallOp, IptRule } from "../ops.ts";
import { FakeFirewall } from "./fake-firewall.ts";

const CHAINS = ["POSTROUTING", "CNI-A", "CNI-B"];
const RULES: IptRule[] = [
  ["-j", "ACCEPT"],
  ["-j", "CNI-B"],
  ["-s", "198.18.0.5/32", "-j", "CNI-A"],
  ["-j", "MASQUERADE"],
];

const iptOp: fc.Arbitrary<FirewallOp> = fc
  .record({
    family: fc.constantFrom<Family>(4, 6),
    chain: fc.constantFrom(...CHAINS),
    kind: fc.nat(5),
    rule: fc.constantFrom(...RULES),
  })
  .map(({ family, chain, kind, rule }) => {
    const at = { family, table: "nat" as const, chain };
    const ops: FirewallOp[] = [
      { op: "ipt.chain.ensure", ...at },
      { op: "ipt.chain.flush", ...at },
      { op: "ipt.chain.remove", ...at },
      { op: "ipt.rule.append", ...at, rule },
      { op: "ipt.rule.insert", ...at, rule },
      { op: "ipt.rule.delete", ...at, rule },
    ];
    return ops[kind % ops.length] as FirewallOp;
  });

const nftOp: fc.Arbitrary<FirewallOp> = fc
  .record({ chain: fc.constantFrom("a", "b"), kind: fc.nat(6), comment: fc.constantFrom("x", "y") })
  .map(({ chain, kind, comment }) => {
    const at = { family: "inet" as const, table: "t" };
    const ops: FirewallOp[] = [
      { op: "nft.table.ensure", ...at },
      { op: "nft.table.remove", ...at },
      { op: "nft.chain.ensure", ...at, chain },
      { op: "nft.chain.remove", ...at, chain },
      { op: "nft.rule.add", ...at, chain, rule: chain === "a" ? "jump b" : "accept", comment },
      { op: "nft.rule.delete", ...at, chain, comment },
      { op: "nft.chain.flush", ...at, chain },
    ];
    return ops[kind % ops.length] as FirewallOp;
  });

async function tryApply(fw: FakeFirewall, tx: FirewallOp[]): Promise<boolean> {
  try {
    await fw.apply(tx);
    return true;
  } catch {
    return false;
  }
}

describe("FakeFirewall properties", () => {
  test("a transaction that fails leaves the state exactly as it was", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.oneof(iptOp, nftOp), { maxLength: 8 }), { maxLength: 6 }), async (txs) => {
        const fw = new FakeFirewall();
        for (const tx of txs) {
          const before = fw.dump();
          if (!(await tryApply(fw, tx))) expect(fw.dump()).toEqual(before);
        }
      }),
      { numRuns: 300 },
    );
  });

  // Applying a transaction again is a no-op only for the shapes the plugins send: an ADD
  // makes, flushes and adds (it removes no chain and deletes no single rule), a DEL only
  // takes away. A transaction that appends to a chain and then removes it cannot succeed
  // twice (the example test below shows it); one that deletes a rule and inserts it again
  // above another reorders the chain the second time.
  // Every chain made and holding rules first, so DEL's shape has something to take.
  const full: FirewallOp[] = ([4, 6] as const).flatMap((family): FirewallOp[] => {
    const at = (chain: string) => ({ family, table: "nat" as const, chain });
    return [
      ...CHAINS.map((chain): FirewallOp => ({ op: "ipt.chain.ensure", ...at(chain) })),
      ...RULES.map((rule): FirewallOp => ({ op: "ipt.rule.append", ...at("POSTROUTING"), rule })),
      ...RULES.filter((r) => !r.includes("CNI-A")).map(
        (rule): FirewallOp => ({ op: "ipt.rule.append", ...at("CNI-A"), rule }),
      ),
    ];
  });
  const addShaped: fc.Arbitrary<FirewallOp> = iptOp.filter(
    (o) => o.op !== "ipt.chain.remove" && o.op !== "ipt.rule.delete",
  );
  const delShaped: fc.Arbitrary<FirewallOp> = iptOp.filter(
    (o) => o.op === "ipt.chain.flush" || o.op === "ipt.rule.delete" || o.op === "ipt.chain.remove",
  );
  test.each([
    ["an iptables transaction that only ensures, flushes, appends and inserts (ADD's shape)", addShaped],
    ["an iptables transaction that only flushes, deletes and removes (DEL's shape)", delShaped],
  ])("%s that succeeded succeeds again and changes nothing", async (_, txOp) => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(iptOp, { maxLength: 8 }), { maxLength: 4 }),
        fc.array(txOp, { minLength: 1, maxLength: 8 }),
        async (setup, tx) => {
          const fw = new FakeFirewall();
          expect(await tryApply(fw, full)).toBe(true);
          for (const s of setup) await tryApply(fw, s);
          if (!(await tryApply(fw, tx))) return;
          const once = fw.dump();
          expect(await tryApply(fw, tx)).toBe(true);
          expect(fw.dump()).toEqual(once);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("a transaction that appends to a chain and then removes it cannot succeed twice", async () => {
    const at = { family: 4 as const, table: "nat" as const, chain: "CNI-A" };
    const bad: FirewallOp[] = [
      { op: "ipt.rule.append", ...at, rule: ["-j", "ACCEPT"] },
      { op: "ipt.chain.remove", ...at },
    ];
    const fw = new FakeFirewall();
    expect(await tryApply(fw, [{ op: "ipt.chain.ensure", ...at }, ...bad])).toBe(true);
    expect(await tryApply(fw, bad)).toBe(false);
  });
});
