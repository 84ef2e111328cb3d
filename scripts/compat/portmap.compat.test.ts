/**
 * portmap next to the reference's (Debian v1.1.1, iptables only) on the real kernel, in
 * throwaway host namespaces: the same ADD writes the same nat table, rule for rule; the
 * reference's ADD then our CHECK and DEL leaves no rule of the container; our ADD then the
 * reference's DEL leaves none either, and the reference's CHECK answers alike on its own
 * rules and ours (SPEC.md §8.5, H-3; issue 9 item 6).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { World, sh } from "../e2e/harness.ts";
import { runInHost } from "./_run-in-host.ts";
import { OUR_BIN_DIR, REFERENCE_PLUGINS, announceSkip, isRoot, missingReference } from "./_reference.ts";

const missing =
  missingReference({ go: false }) ??
  (existsSync(join(REFERENCE_PLUGINS, "portmap"))
    ? undefined
    : `missing ${REFERENCE_PLUGINS}/portmap (apt-get install containernetworking-plugins)`);
const skip = missing ?? (isRoot() ? undefined : "not root (the cases create network namespaces)");
announceSkip("portmap.compat.test.ts", skip);

const MAPPINGS = [
  { hostPort: 8080, containerPort: 80, protocol: "tcp" },
  { hostPort: 8081, containerPort: 81, protocol: "tcp", hostIP: "198.18.40.1" },
  { hostPort: 5353, containerPort: 53, protocol: "udp" },
  { hostPort: 9000, containerPort: 90, protocol: "tcp", hostIP: "2001:db8:40::1" },
];

function conf(containerNs: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cniVersion: "1.0.0",
    name: "pm-compat",
    type: "portmap",
    ...extra,
    runtimeConfig: { portMappings: MAPPINGS },
    prevResult: {
      cniVersion: "1.0.0",
      interfaces: [{ name: "tscnipm1" }, { name: "veth0" }, { name: "eth0", sandbox: containerNs }],
      ips: [
        { address: "198.18.40.5/24", gateway: "198.18.40.1", interface: 2 },
        { address: "2001:db8:40::5/64", gateway: "2001:db8:40::1", interface: 2 },
      ],
    },
  };
}

/** Runs `<dir>/portmap` in `host` as a runtime would. */
function portmap(dir: string, host: string, command: string, netns: string, config: object, containerID = "ctr-pm") {
  return runInHost(dir, "portmap", host, { command, containerID, netns }, config);
}

/** The nat tables of both families as iptables-save prints them, without comments and counters. */
async function natRules(ns: string): Promise<string[]> {
  const out: string[] = [];
  for (const tool of ["iptables-save", "ip6tables-save"]) {
    const text = (await sh(ns, [tool, "-t", "nat"])).stdout;
    out.push(
      ...text
        .split("\n")
        .filter((l) => l.startsWith("-A ") || l.startsWith(":"))
        .map((l) => `${tool}: ${l.replace(/\[\d+:\d+\]/, "")}`),
    );
  }
  return out;
}

/** A host side like bridge leaves it: the bridge with the gateway addresses, up. */
async function hostSide(ns: string): Promise<void> {
  for (const cmd of [
    ["ip", "link", "add", "tscnipm1", "type", "bridge"],
    ["ip", "addr", "add", "198.18.40.1/24", "dev", "tscnipm1"],
    ["ip", "addr", "add", "2001:db8:40::1/64", "dev", "tscnipm1", "nodad"],
    ["ip", "link", "set", "tscnipm1", "up"],
  ]) {
    const r = await sh(ns, cmd);
    if (r.code !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr}`);
  }
}

describe.skipIf(skip !== undefined)("portmap against the reference v1.1.1 (iptables)", () => {
  let ref: World;
  let ours: World;
  const refPm = (c: string, cfg: object, w = ref) => portmap(REFERENCE_PLUGINS, w.host, c, w.netns(0), cfg);
  const ourPm = (c: string, cfg: object, w = ours) => portmap(OUR_BIN_DIR, w.host, c, w.netns(0), cfg);

  beforeAll(async () => {
    ref = await World.create("cpm-ref", 1);
    ours = await World.create("cpm-our", 1);
    await hostSide(ref.host);
    await hostSide(ours.host);
  });
  afterAll(async () => {
    await ref?.close();
    await ours?.close();
  });

  // v1.1.1 (Debian) differs: it has no masqAll (the key is ignored); SPEC §8.5 follows upstream main, see plan-iptables.test.ts
  for (const extra of [{}, { snat: false }, { markMasqBit: 5 }, { externalSetMarkChain: "CNI-HOSTPORT-SETMARK" }]) {
    test(`the same ADD writes the same nat tables in both families (${JSON.stringify(extra)})`, async () => {
      const r = await refPm("ADD", conf(ref.netns(0), extra));
      const o = await ourPm("ADD", conf(ours.netns(0), extra));
      expect(r.code).toBe(0);
      expect(o.code).toBe(0);
      // libcni v1.1 prints an empty "dns":{} on 1.0.0 results (README: library age, not a rule).
      const { dns, ...refResult } = JSON.parse(r.stdout.replaceAll(ref.netns(0), ours.netns(0))) as Record<
        string,
        unknown
      >;
      expect(dns).toEqual({});
      expect(JSON.parse(o.stdout)).toEqual(refResult);
      expect(await natRules(ours.host)).toEqual(await natRules(ref.host));
      expect((await refPm("DEL", conf(ref.netns(0), extra))).code).toBe(0);
      expect((await ourPm("DEL", conf(ours.netns(0), extra))).code).toBe(0);
      expect(await natRules(ours.host)).toEqual(await natRules(ref.host));
    });
  }

  test("the reference's ADD, then our CHECK and DEL: no rule of the container is left", async () => {
    expect((await refPm("ADD", conf(ref.netns(0)))).code).toBe(0);
    expect((await natRules(ref.host)).some((l) => l.includes("CNI-DN-"))).toBe(true);
    const check = await ourPm("CHECK", conf(ref.netns(0)), ref);
    expect(check.stdout).toBe("");
    expect(check.code).toBe(0);
    expect((await ourPm("DEL", conf(ref.netns(0)), ref)).code).toBe(0);
    expect((await natRules(ref.host)).filter((l) => l.includes("CNI-DN-") || l.includes("--to-destination"))).toEqual(
      [],
    );
  });

  test("our ADD, then the reference's CHECK answers as on its own rules, and its DEL leaves no rule", async () => {
    expect((await refPm("ADD", conf(ref.netns(0)))).code).toBe(0);
    const onOwn = await refPm("CHECK", conf(ref.netns(0)));
    expect((await refPm("DEL", conf(ref.netns(0)))).code).toBe(0);
    expect((await ourPm("ADD", conf(ours.netns(0)))).code).toBe(0);
    const onOurs = await refPm("CHECK", conf(ours.netns(0)), ours);
    // v1.1.1 (Debian) differs: its CHECK looks for each family's rules in both ip6tables and iptables, so it fails on dual-stack rules it made itself; upstream main checks each family once (§8.5 CHECK)
    expect([onOurs.code, onOurs.stdout]).toEqual([onOwn.code, onOwn.stdout]);
    expect((await refPm("DEL", conf(ours.netns(0)), ours)).code).toBe(0);
    expect((await natRules(ours.host)).filter((l) => l.includes("CNI-DN-") || l.includes("--to-destination"))).toEqual(
      [],
    );
  });
});
