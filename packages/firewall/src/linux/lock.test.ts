/**
 * The cross-process lock (lock.ts) on the real kernel: N plugin processes ADD at the same
 * moment in one throwaway host namespace, each pausing after its reads so that every
 * read happens before any write. With the lock they leave exactly one of each shared rule
 * and every container's rules (SPEC 8.0 H-3, 8.5); without it the same run leaves
 * duplicates of the shared jump, which is the lost update the lock exists for.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canUseRealKernel, withThrowawayNetns } from "@tscni/kernel/testing";
import { createLinuxFirewall } from "./linux-firewall.ts";
import { createFirewallLock } from "./lock.ts";
import { iptRaceExpected, iptSharedRules, nftRaceExpected, RACE_NFT_TABLE, raceAdd } from "./lock-race.ts";
import { iptablesVariantDir } from "../testing/linux.ts";

const root = canUseRealKernel();
if (!root && process.env.CI === "true") throw new Error("the firewall lock test must run under CI: run it as root");
if (!root) console.warn("skipping the firewall lock test: it needs root (CI runs it as root)");

const N = 5;
const PAUSE_MS = 300;
const CHILD = join(import.meta.dir, "lock-race.child.ts");

type Case = { name: string; backend: "ipt" | "nft"; variant: "nft" | "legacy" };
const CASES: Case[] = [
  { name: "iptables-nft", backend: "ipt", variant: "nft" },
  { name: "iptables-legacy", backend: "ipt", variant: "legacy" },
  { name: "nftables", backend: "nft", variant: "nft" },
];

/** Runs N children at once in `ns`; their exit codes and stderr. */
async function race(
  ns: string,
  c: Case,
  dir: string,
  lockPath: string,
  lock: "on" | "off",
): Promise<{ code: number; err: string }[]> {
  const startAt = Date.now() + 4000;
  const kids = Array.from({ length: N }, (_, i) =>
    Bun.spawn(
      [
        "ip",
        "netns",
        "exec",
        ns,
        process.execPath,
        CHILD,
        c.backend,
        String(i),
        String(startAt),
        String(PAUSE_MS),
        lock,
        dir,
      ],
      {
        env: { ...process.env, TSCNI_FIREWALL_LOCK: lockPath },
        stdout: "ignore",
        stderr: "pipe",
      },
    ),
  );
  return Promise.all(
    kids.map(async (k) => ({ code: await k.exited, err: (await new Response(k.stderr).text()).trim() })),
  );
}

/** Creates the race's baseline, runs it, and returns what the table holds. */
async function run(
  c: Case,
  lock: "on" | "off",
): Promise<{ outcomes: { code: number; err: string }[]; jumps: number; perContainer: number; shared?: string[] }> {
  const tools = iptablesVariantDir(c.variant);
  const lockDir = mkdtempSync(join(tmpdir(), "tscni-fwlock-"));
  try {
    return await withThrowawayNetns(
      1,
      async ([ns]) => {
        const fw = await createLinuxFirewall({
          netns: ns?.path ?? "",
          path: tools.dir,
          lock: createFirewallLock(join(lockDir, "lock")),
        });
        // iptables: the shared chain is there but its jump is not, so every ADD sees the
        // jump missing (a fresh chain would make the others' `-N` fail and retry instead).
        if (c.backend === "ipt") await fw.apply([raceAdd("ipt", 0)[0] as never]);
        const outcomes = await race(ns?.name ?? "", c, tools.dir, join(lockDir, "lock"), lock);
        if (c.backend === "nft")
          return { outcomes, ...nftRaceExpected(N, await fw.nftTable(RACE_NFT_TABLE.family, RACE_NFT_TABLE.table)) };
        const got = iptRaceExpected(N, (await fw.iptables(4, "nat")) ?? []);
        return { outcomes, jumps: got.jumps, perContainer: got.perContainer, shared: got.sharedRules };
      },
      "fwlock",
    );
  } finally {
    tools.cleanup();
    rmSync(lockDir, { recursive: true, force: true });
  }
}

describe.skipIf(!root)("the firewall lock", () => {
  for (const c of CASES) {
    test(`${N} concurrent ${c.name} ADDs leave one shared jump and every container's rules`, async () => {
      const got = await run(c, "on");
      expect(got.outcomes).toEqual(Array.from({ length: N }, () => ({ code: 0, err: "" })));
      expect(got.jumps).toBe(1);
      expect(got.perContainer).toBe(N);
      if (c.backend === "ipt") expect(got.shared).toEqual(iptSharedRules(N));
    });
  }

  for (const c of [CASES[0], CASES[2]] as Case[]) {
    test(`without the lock the same ${c.name} race duplicates the shared jump (the lost update)`, async () => {
      const got = await run(c, "off");
      expect(got.outcomes.every((o) => o.code === 0)).toBe(true);
      expect(got.jumps).toBeGreaterThan(1);
    });
  }
});
