/**
 * Random ADDs and DELs of containers through the firewall plugin on the fake firewall,
 * some ADDs failing on an injected error, each container with its own random IPv4 and/or
 * IPv6 addresses: every live container has exactly its own rules in CNI-FORWARD (none
 * removed by another's DEL or failed ADD), and once every container is gone CNI-FORWARD
 * holds only the admin jump again.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { FakeFirewall } from "@tscni/firewall/fake";
import type { CmdArgs } from "@tscni/skel";
import { fakeFirewalld } from "../testing/fake-dbus.ts";
import { firewallHandlers } from "./index.ts";
import { containerRules, hostIps } from "./rules.ts";

type Cmd = { kind: "add"; id: number; fail: boolean } | { kind: "del"; id: number };
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ kind: fc.constant("add" as const), id: fc.integer({ min: 0, max: 5 }), fail: fc.boolean() }),
  fc.record({ kind: fc.constant("del" as const), id: fc.integer({ min: 0, max: 5 }) }),
);
/** Each container's addresses: its own v4 and/or v6 (never another's). */
const families = fc.array(fc.constantFrom<"4" | "6" | "46">("4", "6", "46"), { minLength: 6, maxLength: 6 });

const addressesOf = (id: number, fam: string): string[] => [
  ...(fam.includes("4") ? [`198.18.60.${10 + id}/24`] : []),
  ...(fam.includes("6") ? [`2001:db8:60::${10 + id}/64`] : []),
];

function args(id: number, fam: string, command: string): CmdArgs {
  const prevResult = {
    cniVersion: "1.0.0",
    interfaces: [{ name: "cni0" }],
    ips: addressesOf(id, fam).map((address) => ({ address, interface: 0 })),
  };
  const config = { cniVersion: "1.0.0", name: "pnet", type: "firewall", backend: "iptables", prevResult };
  return {
    command,
    containerID: `p${id}`,
    netns: `/var/run/netns/p${id}`,
    ifName: "eth0",
    args: "",
    path: "",
    stdinData: new Uint8Array(),
    config,
  };
}

/** The CNI-FORWARD rules of both families, as joined lines. */
async function forwardRules(fw: FakeFirewall): Promise<string[]> {
  const out: string[] = [];
  for (const f of [4, 6] as const)
    for (const c of (await fw.iptables(f, "filter")) ?? [])
      if (c.name === "CNI-FORWARD") out.push(...c.rules.map((r) => `${f} ${r.join(" ")}`));
  return out;
}

const expectedFor = (id: number, fam: string): string[] =>
  hostIps({ cniVersion: "1.1.0", ips: addressesOf(id, fam).map((address) => ({ address })) }).flatMap((ip) =>
    containerRules(ip.cidr).map((r) => `${ip.family} ${r.join(" ")}`),
  );

describe("firewall plugin on the fake firewall, random ADD/DEL", () => {
  test("live containers keep exactly their rules, and all DELs bring CNI-FORWARD back to the admin jump", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { maxLength: 25 }), families, async (cmds, fams) => {
        const fw = new FakeFirewall();
        const h = firewallHandlers({ firewall: fw, dbus: fakeFirewalld({ running: false }), warn: () => {} });
        const live = new Set<number>();
        for (const c of cmds) {
          const fam = fams[c.id]!;
          if (c.kind === "add") {
            fw.failWhen = c.fail ? (op) => (op.op === "ipt.rule.append" ? "injected" : undefined) : undefined;
            const ok = await h.add!(args(c.id, fam, "ADD")).then(
              () => true,
              () => false,
            );
            fw.failWhen = undefined;
            expect(ok).toBe(!c.fail);
            // A failed ADD removes the container's rules, as the reference's cleanup does.
            if (ok) live.add(c.id);
            else live.delete(c.id);
          } else {
            await h.del!(args(c.id, fam, "DEL"));
            live.delete(c.id);
          }
          const rules = (await forwardRules(fw)).filter((r) => !r.includes("admin overrides"));
          expect(rules.sort()).toEqual([...live].flatMap((id) => expectedFor(id, fams[id]!)).sort());
        }
        for (const id of [...live]) await h.del!(args(id, fams[id]!, "DEL"));
        const left = await forwardRules(fw);
        expect(left.every((r) => r.includes("admin overrides"))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
