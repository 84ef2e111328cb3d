/**
 * The nfnetlink nftables backend inside the Linux firewall, on the real kernel in a
 * throwaway namespace: a rule someone deletes between our read and our batch does not
 * fail our DEL (the batch is refused whole, we read again and render again), and a rule
 * outside the compiled subset goes through `nft` for writing and reading alike.
 */
import { describe, expect, test } from "bun:test";
import { canUseRealKernel, withThrowawayNetns } from "@tscni/kernel/testing";
import type { FirewallOp } from "../../ops.ts";
import { createLinuxFirewall } from "../linux-firewall.ts";
import { inNetns } from "../../testing/linux.ts";

const root = canUseRealKernel();
if (!root && process.env.CI === "true")
  throw new Error("the nfnetlink backend tests must run under CI: run them as root");
if (!root) console.warn("skipping the nfnetlink backend tests: they need root (CI runs them as root)");

const T = { family: "ip", table: "t" } as const;
const setup: FirewallOp[] = [
  { op: "nft.table.ensure", ...T },
  { op: "nft.chain.ensure", ...T, chain: "c" },
  { op: "nft.rule.add", ...T, chain: "c", rule: "ip saddr 198.18.0.5 accept", comment: "c1" },
  { op: "nft.rule.add", ...T, chain: "c", rule: "ip saddr 198.18.0.6 accept", comment: "c1" },
];

describe.skipIf(!root)("the nfnetlink backend", () => {
  test("a rule someone deletes between our read and our batch does not fail our DEL", async () => {
    await withThrowawayNetns(
      1,
      async ([ns]) => {
        const name = ns?.name ?? "";
        let raced = false;
        const fw = await createLinuxFirewall({
          netns: ns?.path ?? "",
          nftTransport: "nfnetlink",
          lock: false,
          afterNftRead: () => {
            if (raced || !armed) return;
            raced = true; // a concurrent DEL of the same container removes one rule first
            const handle =
              /accept comment "c1" # handle (\d+)/.exec(
                inNetns(name, ["nft", "-a", "list", "chain", "ip", "t", "c"]),
              )?.[1] ?? "";
            inNetns(name, ["nft", "delete", "rule", "ip", "t", "c", "handle", handle]);
          },
        });
        let armed = false;
        await fw.apply(setup);
        armed = true;
        await fw.apply([{ op: "nft.rule.delete", ...T, chain: "c", comment: "c1" }]);
        expect(raced).toBe(true);
        expect((await fw.nftTable("ip", "t"))?.find((c) => c.name === "c")?.rules).toEqual([]);
      },
      "nfnlbe",
    );
  });

  test("a rule outside the compiled subset is written and read back through nft", async () => {
    await withThrowawayNetns(
      1,
      async ([ns]) => {
        const nftRuns: string[] = [];
        const fw = await createLinuxFirewall({
          netns: ns?.path ?? "",
          nftTransport: "nfnetlink",
          wrapExec: (exec) => (argv, stdin) => {
            nftRuns.push(argv.slice(1).join(" "));
            return exec(argv, stdin);
          },
        });
        await fw.apply([
          ...setup,
          { op: "nft.rule.add", ...T, chain: "c", rule: "meta l4proto tcp accept", comment: "c2" },
        ]);
        const rules = (await fw.nftTable("ip", "t"))
          ?.find((c) => c.name === "c")
          ?.rules.map(({ rule, comment }) => ({ rule, comment }));
        expect(rules).toEqual([
          { rule: "ip saddr 198.18.0.5 accept", comment: "c1" },
          { rule: "ip saddr 198.18.0.6 accept", comment: "c1" },
          { rule: "meta l4proto tcp accept", comment: "c2" },
        ]);
        // The `nft` transport reads for itself, writes, and then the table is listed by `nft`.
        expect(nftRuns).toEqual(["-a -s list table ip t", "-f -", "-a -s list table ip t"]);
        // Without that rule the same table is all nfnetlink again.
        nftRuns.length = 0;
        await fw.apply([{ op: "nft.rule.delete", ...T, chain: "c", comment: "c2" }]);
        expect(nftRuns).toEqual(["-a -s list table ip t"]);
        expect((await fw.nftTable("ip", "t"))?.find((c) => c.name === "c")?.rules).toHaveLength(2);
        expect(nftRuns).toEqual(["-a -s list table ip t"]);
      },
      "nfnlbe",
    );
  });
});
