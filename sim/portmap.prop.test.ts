/**
 * portmap on the fake firewall under random ADD/DEL of containers with random mappings
 * (issue 9 item 6): every live container's CHECK passes whatever the others did (no two
 * containers' rules collide), and after every DEL the rule set is back to its baseline,
 * the shared chains and tables alone, as each container's ADD and DEL alone leave them.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { PREV, World, portmapConf } from "./portmap-harness.ts";

const mapping = fc.record({
  // A small port range so that containers often map the same host ports.
  hostPort: fc.integer({ min: 8000, max: 8020 }),
  containerPort: fc.integer({ min: 1, max: 65535 }),
  protocol: fc.constantFrom("tcp", "udp", "sctp"),
  hostIP: fc.constantFrom("", "", "198.18.0.1", "0.0.0.0", "2001:db8::1", "::"),
});

const flags = fc.record({
  backend: fc.constantFrom("iptables", "nftables"),
  snat: fc.boolean(),
  masqAll: fc.boolean(),
  markMasqBit: fc.integer({ min: 0, max: 31 }),
});

/** Container i's config: its own addresses, one or both families. */
function containerConf(
  i: number,
  mappings: object[],
  f: Record<string, unknown>,
  v6: boolean,
): Record<string, unknown> {
  const ips = [
    { address: `198.18.0.${10 + i}/24`, interface: 2 },
    ...(v6 ? [{ address: `2001:db8::${(16 + i).toString(16)}/64`, interface: 2 }] : []),
  ];
  return portmapConf(mappings, { ...f, prevResult: { ...PREV, ips } });
}

const scenario = fc
  .record({
    flags,
    containers: fc.array(
      fc.record({ mappings: fc.array(mapping, { minLength: 1, maxLength: 18 }), v6: fc.boolean() }),
      { minLength: 1, maxLength: 5 },
    ),
  })
  .chain((s) => {
    const steps = s.containers.flatMap((_, i) => [i, i]);
    return fc.record({
      flags: fc.constant(s.flags),
      containers: fc.constant(s.containers),
      order: fc.shuffledSubarray(steps, { minLength: steps.length, maxLength: steps.length }),
    });
  });

describe("portmap on the fake firewall", () => {
  test("random ADD/DEL of containers: live containers always CHECK, and all DELs restore the baseline", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ flags: f, containers, order }) => {
        const confs = containers.map((c, i) => containerConf(i, c.mappings, f, c.v6));
        // The baseline: what each container's ADD and DEL alone leave (the shared chains and tables).
        const base = new World();
        for (const [i, conf] of confs.entries()) {
          expect((await base.run("ADD", conf, `c${i}`)).code).toBe(0);
          expect((await base.run("DEL", conf, `c${i}`)).code).toBe(0);
        }
        const w = new World();
        const live = new Set<number>();
        for (const i of order) {
          const cmd = live.has(i) ? "DEL" : "ADD";
          const r = await w.run(cmd, confs[i]!, `c${i}`);
          expect(r.stdout === "" ? 0 : r.code).toBe(0);
          if (cmd === "ADD") live.add(i);
          else live.delete(i);
          for (const j of live) {
            const check = await w.run("CHECK", confs[j]!, `c${j}`);
            if (check.code !== 0) throw new Error(`CHECK of c${j} after ${cmd} c${i}: ${check.stdout}`);
          }
        }
        expect(w.firewall.dump()).toEqual(base.firewall.dump());
      }),
      { numRuns: 60 },
    );
  });
});
