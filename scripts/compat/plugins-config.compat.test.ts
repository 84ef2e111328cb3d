/**
 * Differential tests of config validation: every bridge, ptp, host-local and loopback
 * config error of SPEC.md §8.1-8.4 and wrongly typed fields (PC-6), sent to the reference
 * plugins (/usr/lib/cni, v1.1) and to ours, on ADD, DEL and CHECK, must fail alike (exit,
 * code, message), and leave the kernels and stores alike. Where we differ on purpose the
 * test says why and asserts our documented behaviour.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { announceSkip } from "./_reference.ts";
import {
  CONFIG_CODE,
  codeInstead,
  expectSame,
  expectSameOrKnown,
  expectSameState,
  inBatches,
  twinSkipReason,
  whereMessage,
  type KnownDifference,
} from "./_diff.ts";
import { linkNames } from "../e2e/harness.ts";
import { Twin, type SideCtx } from "./_twin.ts";

const skip = twinSkipReason();
/** Generous: each test runs dozens of plugin calls on a machine that may be busy. */
const TIMEOUT_MS = 120_000;
announceSkip("plugins-config.compat.test.ts", skip);

const VERSIONS = ["0.3.1", "0.4.0", "1.0.0"] as const;

let twin: Twin;
beforeAll(async () => {
  if (skip === undefined) twin = await Twin.create("conf", 1);
}, TIMEOUT_MS);
afterAll(async () => {
  await twin?.close();
}, TIMEOUT_MS);

type Build = (s: SideCtx, version: string) => Record<string, unknown>;
/** A labelled config; a {@link KnownDifference} where the installed v1.1.1 answers otherwise than SPEC. */
type Case = [string, Build] | [string, Build, KnownDifference];

const hostLocal =
  (ipam: Record<string, unknown>, extra: Record<string, unknown> = {}): Build =>
  (s, version) => ({
    cniVersion: version,
    name: "tconf-hl",
    type: "host-local",
    ipam: { type: "host-local", dataDir: s.dataDir, ...ipam },
    ...extra,
  });
const bridge =
  (extra: Record<string, unknown>): Build =>
  (s, version) => ({
    cniVersion: version,
    name: "tconf-br",
    type: "bridge",
    bridge: "tcfbr0",
    ipam: { type: "host-local", dataDir: s.dataDir, subnet: "198.18.80.0/24" },
    ...extra,
  });
const ptp =
  (extra: Record<string, unknown>): Build =>
  (s, version) => ({
    cniVersion: version,
    name: "tconf-ptp",
    type: "ptp",
    ipam: { type: "host-local", dataDir: s.dataDir, subnet: "198.18.81.0/24" },
    ...extra,
  });

let serial = 0;

/**
 * The hairpin-with-promisc error: SPEC §8.1 quotes it without v1.1.1's trailing period,
 * and it is an invalid config, code 7 where v1.1.1 answers 999 (§4.2).
 */
const HAIRPIN_PROMISC: KnownDifference = (ref) =>
  ref.error?.code === 999 && ref.error.msg === "cannot set hairpin mode and promiscuous mode at the same time."
    ? { ...ref, error: { code: 7, msg: "cannot set hairpin mode and promiscuous mode at the same time" } }
    : undefined;

/**
 * Sends ADD, DEL and CHECK of each config that fails ADD, at each version, a few at a time,
 * and expects alike answers, or the case's known version difference (else `known`).
 */
async function expectAllFailAlike(plugin: string, cases: readonly Case[], known?: KnownDifference): Promise<void> {
  const runs = cases.flatMap(([label, build, own]) =>
    VERSIONS.flatMap((v) => ["ADD", "DEL", "CHECK"].map((cmd) => ({ label, build, known: own ?? known, v, cmd }))),
  );
  await inBatches(runs, 8, async ({ label, build, known, v, cmd }) => {
    const n = ++serial;
    // Some fail only on ADD (hairpin with promisc, the bridge name): DEL and CHECK must then agree too.
    const req = { plugin, command: cmd, containerID: `cf-${n}`, ifName: `e${n}`, config: (s: SideCtx) => build(s, v) };
    const a = await expectSameOrKnown(twin, `${plugin} ${label} ${cmd} at ${v}`, req, known);
    if (cmd === "ADD")
      expect({ case: `${plugin} ${label} ADD at ${v}`, exit: a.reference.exit }).toEqual({
        case: `${plugin} ${label} ADD at ${v}`,
        exit: 1,
      });
  });
}

describe.skipIf(skip !== undefined)("config errors fail as the reference's", () => {
  test(
    "host-local: ranges, subnets, bounds, overlaps and wrong JSON types (§8.3)",
    async () => {
      // v1.1.1 (Debian) differs: code 999 for every invalid IPAM config; SPEC §4.2 gives code 7
      await expectAllFailAlike(
        "host-local",
        [
          ["without ranges", hostLocal({})],
          ["a /31 subnet", hostLocal({ subnet: "198.18.82.0/31" })],
          ["a /32 range", hostLocal({ ranges: [[{ subnet: "198.18.82.0/32" }]] })],
          ["a /127 range", hostLocal({ ranges: [[{ subnet: "2001:db8:82::/127" }]] })],
          ["host bits", hostLocal({ ranges: [[{ subnet: "198.18.82.5/24" }]] })],
          ["a subnet that is not a CIDR", hostLocal({ ranges: [[{ subnet: "nope" }]] })],
          ["rangeStart outside", hostLocal({ ranges: [[{ subnet: "198.18.82.0/24", rangeStart: "198.18.83.5" }]] })],
          ["rangeEnd outside", hostLocal({ ranges: [[{ subnet: "198.18.82.0/24", rangeEnd: "198.18.83.5" }]] })],
          [
            "rangeStart after rangeEnd",
            hostLocal({
              ranges: [[{ subnet: "198.18.82.0/24", rangeStart: "198.18.82.50", rangeEnd: "198.18.82.10" }]],
            }),
          ],
          ["rangeStart not an IP", hostLocal({ ranges: [[{ subnet: "198.18.82.0/24", rangeStart: "x" }]] })],
          [
            "overlapping ranges in a set",
            hostLocal({ ranges: [[{ subnet: "198.18.82.0/24" }, { subnet: "198.18.82.0/25" }]] }),
          ],
          [
            "overlapping range sets",
            hostLocal({ ranges: [[{ subnet: "198.18.82.0/24" }], [{ subnet: "198.18.82.128/25" }]] }),
          ],
          [
            "the legacy subnet overlapping ranges",
            hostLocal({ subnet: "198.18.82.0/24", ranges: [[{ subnet: "198.18.82.0/24" }]] }),
          ],
          [
            "mixed families in a set",
            hostLocal({ ranges: [[{ subnet: "198.18.82.0/24" }, { subnet: "2001:db8:82::/64" }]] }),
          ],
          ["an empty range set", hostLocal({ ranges: [[]] })],
          ["ranges not a list", hostLocal({ ranges: "x" })],
          ["a range set not a list", hostLocal({ ranges: ["x"] })],
          ["routes not a list", hostLocal({ subnet: "198.18.82.0/24", routes: "x" })],
          ["a route to a bad destination", hostLocal({ subnet: "198.18.82.0/24", routes: [{ dst: "x" }] })],
          [
            "a route through a bad gateway",
            hostLocal({ subnet: "198.18.82.0/24", routes: [{ dst: "0.0.0.0/0", gw: "x" }] }),
          ],
          ["dataDir a number", hostLocal({ subnet: "198.18.82.0/24", dataDir: 5 })],
          ["type a number", hostLocal({ subnet: "198.18.82.0/24", type: 5 })],
          ["subnet a number", hostLocal({ subnet: 5 })],
          ["ipam null", (_s, v) => ({ cniVersion: v, name: "tconf-hl", type: "host-local", ipam: null })],
          ["ipam a number", (_s, v) => ({ cniVersion: v, name: "tconf-hl", type: "host-local", ipam: 5 })],
          ["no ipam", (_s, v) => ({ cniVersion: v, name: "tconf-hl", type: "host-local" })],
        ],
        CONFIG_CODE,
      );
      // Two IPv4 range sets need spec 0.3.0 (VN-7).
      for (const cmd of ["ADD", "DEL"]) {
        await expectSameOrKnown(
          twin,
          `two IPv4 sets at 0.2.0 ${cmd}`,
          {
            plugin: "host-local",
            command: cmd,
            containerID: "cf-two",
            config: (s) =>
              hostLocal({ ranges: [[{ subnet: "198.18.82.0/24" }], [{ subnet: "198.18.83.0/24" }]] })(s, "0.2.0"),
          },
          CONFIG_CODE,
        );
      }
    },
    TIMEOUT_MS,
  );

  test(
    "bridge: VLAN, hairpin with promisc, wrong JSON types, prevResult, bridge name (§8.1, PC-6)",
    async () => {
      // v1.1.1 (Debian) differs: code 999 for every invalid config; SPEC §4.2 gives code 7
      await expectAllFailAlike(
        "bridge",
        [
          ["vlan -1", bridge({ vlan: -1 })],
          ["vlan 4095", bridge({ vlan: 4095 })],
          ["vlan a string", bridge({ vlan: "5" })],
          // v1.1.1 (Debian) differs: its message ends with a period; SPEC §8.1 follows upstream main
          ["hairpin and promisc", bridge({ hairpinMode: true, promiscMode: true }), HAIRPIN_PROMISC],
          ["mtu a string", bridge({ mtu: "1500" })],
          ["mtu a fraction", bridge({ mtu: 1.5 })],
          ["isGateway a string", bridge({ isGateway: "true" })],
          ["bridge a number", bridge({ bridge: 5 })],
          // The kernel's refusal (netlink ERANGE), code 999 on both sides.
          ["bridge name over 15 bytes", bridge({ bridge: "x".repeat(16) }), () => undefined],
          ["ipam.type a number", bridge({ ipam: { type: 5 } })],
          ["ipam an array", bridge({ ipam: [] })],
          ["dns a string", bridge({ dns: "x" })],
          ["dns.nameservers a string", bridge({ dns: { nameservers: "x" } })],
          ["args.cni a string", bridge({ args: { cni: "x" } })],
          ["runtimeConfig.mac a number", bridge({ runtimeConfig: { mac: 5 } })],
          // ADD refuses the MAC; CHECK fails on IPAM alike (999 on both sides).
          [
            "an invalid runtimeConfig.mac",
            bridge({ runtimeConfig: { mac: "zz" } }),
            whereMessage(/invalid MAC address/, CONFIG_CODE),
          ],
          ["prevResult a number", bridge({ prevResult: 5 })],
        ],
        CONFIG_CODE,
      );
      // The reference creates the bridge before it finds the bad MAC; we refuse the MAC
      // before touching anything (bridge/config.ts validateForAdd). The rest must be alike.
      await twin.sh((s) => s.world.host, "ip link del tcfbr0 2>/dev/null; true");
      await expectSameState(twin, "the bridge config errors");
    },
    TIMEOUT_MS,
  );

  test(
    "ptp: IPAM missing or unknown, wrong JSON types, prevResult (§8.2, PC-6)",
    async () => {
      // v1.1.1 (Debian) differs: code 999 for a wrongly typed field; SPEC §4.2 gives code 7
      await expectAllFailAlike("ptp", [
        ["without ipam", (s, v) => ({ cniVersion: v, name: "tconf-ptp", type: "ptp" })],
        ["with an empty ipam", ptp({ ipam: {} })],
        ["an unknown IPAM type", ptp({ ipam: { type: "tscni-no-such-ipam" } })],
        ["mtu a string", ptp({ mtu: "x" }), CONFIG_CODE],
        ["dns a number", ptp({ dns: 5 }), CONFIG_CODE],
        ["ipam a number", ptp({ ipam: 5 }), CONFIG_CODE],
        ["prevResult a string", ptp({ prevResult: "x" }), CONFIG_CODE],
      ]);
      await expectSameState(twin, "the ptp config errors");
    },
    TIMEOUT_MS,
  );

  test(
    "loopback: a prevResult that is not an object, or of another version family (§8.4, PR-2)",
    async () => {
      // v1.1.1 (Debian) differs: code 999 for both; SPEC §4.2 gives code 7 (invalid config) and 1 (incompatible version)
      for (const v of VERSIONS) {
        const config = () => ({ cniVersion: v, name: "tconf-lo", type: "loopback", prevResult: 5 });
        await expectSameOrKnown(
          twin,
          `loopback prevResult a number at ${v}`,
          { plugin: "loopback", command: "ADD", ifName: "lo", config },
          CONFIG_CODE,
        );
        await expectSameOrKnown(
          twin,
          `loopback prevResult at 0.2.0 under ${v}`,
          {
            plugin: "loopback",
            command: "ADD",
            ifName: "lo",
            config: () => ({
              cniVersion: v,
              name: "tconf-lo",
              type: "loopback",
              prevResult: { cniVersion: "0.2.0", ip4: { ip: "198.18.84.2/24" } },
            }),
          },
          codeInstead(1),
        );
      }
    },
    TIMEOUT_MS,
  );
});

describe.skipIf(skip !== undefined)("config keys where we differ on purpose", () => {
  test(
    "an unknown ipMasqBackend fails with code 7 before anything changes (H-3); the reference v1.1 predates the key and ignores it",
    async () => {
      for (const [plugin, build] of [
        ["bridge", bridge({ ipMasq: true, ipMasqBackend: "ebtables" })],
        ["ptp", ptp({ ipMasq: true, ipMasqBackend: "ebtables" })],
      ] as const) {
        const a = await twin.call({
          plugin,
          command: "ADD",
          containerID: "masq-backend",
          ifName: "emasq",
          config: (s) => build(s, "1.0.0"),
        });
        expect(a.reference.exit).toBe(0);
        expect(a.ours.error).toEqual({ code: 7, msg: 'unknown ipmasq backend "ebtables"' });
        await twin.call({
          plugin,
          command: "DEL",
          containerID: "masq-backend",
          ifName: "emasq",
          config: (s) => build(s, "1.0.0"),
        });
      }
    },
    TIMEOUT_MS,
  );

  test(
    "vlanTrunk and disableContainerInterface are checked as SPEC §8.1 describes; the reference v1.1 predates them and ignores the keys",
    async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ vlanTrunk: [{ minID: 0, maxID: 5 }] }, "incorrect trunk minID parameter"],
        [{ vlanTrunk: [{ minID: 1, maxID: 5000 }] }, "incorrect trunk maxID parameter"],
        [{ vlanTrunk: [{ minID: 10, maxID: 5 }] }, "minID is greater than maxID in trunk parameter"],
        [{ vlanTrunk: [{ maxID: 5 }] }, "minID and maxID should be configured simultaneously, minID is missing"],
        [{ vlanTrunk: [{ minID: 5 }] }, "minID and maxID should be configured simultaneously, maxID is missing"],
        [{ vlanTrunk: [{ id: 4095 }] }, "incorrect trunk id parameter"],
        [{ disableContainerInterface: true }, "cannot use IPAM when DisableContainerInterface flag is set"],
      ];
      for (const [extra, msg] of cases) {
        const config = (s: SideCtx) => bridge(extra)(s, "1.0.0");
        const a = await twin.call({ plugin: "bridge", command: "ADD", containerID: "trunk", ifName: "etrunk", config });
        expect(a.reference.exit).toBe(0);
        expect(a.ours.error).toEqual({ code: 7, msg });
        await twin.call({
          plugin: "bridge",
          command: "DEL",
          containerID: "trunk",
          ifName: "etrunk",
          config: (s) => bridge({})(s, "1.0.0"),
        });
      }
    },
    TIMEOUT_MS,
  );

  test(
    "a bridge ADD whose IPAM fails leaves nothing behind, where the reference leaves the container end (ADD-6, README 'Choices')",
    async () => {
      const config = (s: SideCtx) => bridge({ ipam: { type: "tscni-no-such-ipam" } })(s, "1.0.0");
      await expectSame(twin, "bridge with an unknown IPAM type", {
        plugin: "bridge",
        command: "ADD",
        containerID: "noipam",
        ifName: "enoipam",
        config,
      });
      const names = async (side: "reference" | "ours") =>
        (await linkNames(twin.sides[side].world.containers[0]!)).filter((n) => n === "enoipam");
      expect([await names("reference"), await names("ours")]).toEqual([["enoipam"], []]);
      await twin.sh((s) => s.world.containers[0]!, "ip link del enoipam 2>/dev/null; true");
    },
    TIMEOUT_MS,
  );

  test(
    "an L2 bridge's CHECK does not call IPAM, where the reference fails 'no plugin name provided' (§10 item 10 [DIFF])",
    async () => {
      const config = (s: SideCtx) => ({ ...bridge({})(s, "1.0.0"), ipam: {} });
      const add = await twin.call({ plugin: "bridge", command: "ADD", containerID: "l2", ifName: "el2", config });
      expect([add.reference.exit, add.ours.exit]).toEqual([0, 0]);
      const check = await twin.call({
        plugin: "bridge",
        command: "CHECK",
        containerID: "l2",
        ifName: "el2",
        config: (s) => ({ ...config(s), prevResult: JSON.parse(add[s.side].raw) }),
      });
      expect(check.reference.error).toEqual({ code: 999, msg: "no plugin name provided" });
      expect(check.ours.exit).toBe(0);
      await twin.call({ plugin: "bridge", command: "DEL", containerID: "l2", ifName: "el2", config });
    },
    TIMEOUT_MS,
  );
});
