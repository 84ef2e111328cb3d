/**
 * Differential tests of whole attachments on the real kernel: bridge, ptp and loopback
 * ADD, CHECK and DEL at spec 0.2.0 (ADD and DEL), 0.3.1, 0.4.0 and 1.0.0, sent to the
 * reference plugins (/usr/lib/cni, v1.1) and to ours in twin namespace sets. After every
 * step the answers (results with MACs, veth names and paths replaced) and the kernels
 * (links, MTU, promisc and hairpin, addresses, routes, sysctls, host-local store) must be
 * alike (ADD-2..ADD-4, DEL-2..DEL-4, CHK-1..CHK-3, §8.1-8.4).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { announceSkip, run } from "./_reference.ts";
import {
  OUR_HOST_VETH_ACCEPT_DAD,
  expectKeepAddrOnDown,
  expectSame,
  expectSameState,
  expectVersionDifference,
  resultsOf,
  twinSkipReason,
  withPrev,
  type VersionDifference,
} from "./_diff.ts";
import { SIDES, Twin, type SideCtx } from "./_twin.ts";

const skip = twinSkipReason();
/** Generous: each test runs dozens of plugin calls on a machine that may be busy. */
const TIMEOUT_MS = 120_000;
announceSkip("plugins-lifecycle.compat.test.ts", skip);

const VERSIONS = ["0.2.0", "0.3.1", "0.4.0", "1.0.0"] as const;
const hasCheck = (v: string): boolean => v === "0.4.0" || v === "1.0.0";

let twin: Twin;
beforeAll(async () => {
  if (skip !== undefined) return;
  twin = await Twin.create("life", VERSIONS.length + 1);
  for (const side of SIDES)
    writeFileSync(
      join(twin.sides[side].world.dir, "resolv.conf"),
      "nameserver 198.18.0.53\nsearch a.test b.test\noptions ndots:2\ndomain x.test\n",
    );
}, TIMEOUT_MS);
afterAll(async () => {
  await twin?.close();
}, TIMEOUT_MS);

/** A dual-stack bridge network with a gateway, a default route, MTU, hairpin and config DNS (§8.1). */
const bridgeNet = (i: number, v: string) => (s: SideCtx) => ({
  cniVersion: v,
  name: `tlife-br${i}`,
  type: "bridge",
  bridge: `tlbr${i}`,
  isDefaultGateway: true,
  mtu: 1400,
  hairpinMode: true,
  dns: { nameservers: ["198.18.0.54"], search: ["c.test"] },
  ipam: {
    type: "host-local",
    ranges: [[{ subnet: `198.18.${90 + i}.0/24` }], ...(v === "0.2.0" ? [] : [[{ subnet: `2001:db8:9${i}::/64` }]])],
    routes: [{ dst: `198.18.${110 + i}.0/24`, gw: `198.18.${90 + i}.254` }],
    resolvConf: join(s.world.dir, "resolv.conf"),
    dataDir: s.dataDir,
  },
});

/** A ptp network whose DNS comes from IPAM's resolvConf (§8.2, §8.3). */
const ptpNet = (i: number, v: string) => (s: SideCtx) => ({
  cniVersion: v,
  name: `tlife-ptp${i}`,
  type: "ptp",
  mtu: 1300,
  ipam: {
    type: "host-local",
    ranges: [[{ subnet: `198.18.${100 + i}.0/24`, rangeStart: `198.18.${100 + i}.10` }]],
    // With a gateway: the reference's CHECK fails on a route without one (see below).
    routes: [{ dst: `198.18.${120 + i}.0/24`, gw: `198.18.${100 + i}.1` }],
    resolvConf: join(s.world.dir, "resolv.conf"),
    dataDir: s.dataDir,
  },
});

const loNet = (v: string) => () => ({ cniVersion: v, name: "tlife-lo", type: "loopback" });

/** ADD with the container's interface name taken (ADD-4): both sides fail, in their own words. */
function nameTaken(ifName: string): VersionDifference {
  return {
    // v1.1.1 (Debian) differs: it does not name the peer; SPEC H-1 follows upstream main
    reference: { exit: 1, error: { code: 999, msg: `container veth name provided (${ifName}) already exists` } },
    ours: {
      exit: 1,
      error: { code: 999, msg: `container veth name ("${ifName}") peer provided ("veth*") already exists` },
    },
  };
}

describe.skipIf(skip !== undefined)("attachments behave as the reference's, step by step", () => {
  for (const [i, v] of VERSIONS.entries()) {
    test(
      `bridge, ptp and loopback at ${v}: ADD, CHECK, tampering, ADD again, DEL`,
      async () => {
        const at = { containerID: `life-${i}`, netns: i } as const;
        const br = bridgeNet(i, v);
        const pt = ptpNet(i, v);

        const add = await expectSame(twin, "bridge ADD", { plugin: "bridge", command: "ADD", ...at, config: br });
        expect(add.reference.exit).toBe(0);
        // Until the bridge DEL, eth0's keep_addr_on_down is a known version difference (H-2).
        const drop = [
          OUR_HOST_VETH_ACCEPT_DAD,
          ...(v === "0.2.0" ? [] : [await expectKeepAddrOnDown(twin, i, "eth0")]),
        ];
        await expectSameState(twin, `bridge ADD at ${v}`, drop);
        const brPrev = resultsOf(add);

        // Chained after the bridge, loopback passes the result through (LO-2, ADD-3).
        if (v !== "0.2.0")
          await expectSame(twin, "loopback chained ADD", {
            plugin: "loopback",
            command: "ADD",
            ...at,
            ifName: "lo",
            config: withPrev(loNet(v), brPrev),
          });
        // ADD-4: the same attachment again, and a taken name.
        expectVersionDifference(
          "bridge ADD again",
          await twin.call({ plugin: "bridge", command: "ADD", ...at, config: br }),
          nameTaken("eth0"),
        );
        await expectSameState(twin, `bridge ADD again at ${v}`, drop);

        const ptpAdd = await expectSame(twin, "ptp ADD", {
          plugin: "ptp",
          command: "ADD",
          ...at,
          ifName: "eth1",
          config: pt,
        });
        expect(ptpAdd.reference.exit).toBe(0);
        await expectSameState(twin, `ptp ADD at ${v}`, drop);
        const ptpPrev = resultsOf(ptpAdd);
        await expectSame(twin, "ptp ADD again", { plugin: "ptp", command: "ADD", ...at, ifName: "eth1", config: pt });
        const onBridgeName = await twin.call({
          plugin: "ptp",
          command: "ADD",
          ...at,
          containerID: `other-${i}`,
          config: pt,
        });
        expectVersionDifference("ptp ADD on the bridge's interface name", onBridgeName, nameTaken("eth0"));
        await expectSameState(twin, `ptp ADD again at ${v}`, drop);

        if (hasCheck(v)) {
          await expectSame(twin, "bridge CHECK", {
            plugin: "bridge",
            command: "CHECK",
            ...at,
            config: withPrev(br, brPrev),
          });
          await expectSame(twin, "ptp CHECK", {
            plugin: "ptp",
            command: "CHECK",
            ...at,
            ifName: "eth1",
            config: withPrev(pt, ptpPrev),
          });
          await expectSame(twin, "bridge CHECK without prevResult", {
            plugin: "bridge",
            command: "CHECK",
            ...at,
            config: br,
          });
          await expectSame(twin, "ptp CHECK without prevResult", {
            plugin: "ptp",
            command: "CHECK",
            ...at,
            ifName: "eth1",
            config: pt,
          });
          await expectSame(twin, "loopback CHECK", {
            plugin: "loopback",
            command: "CHECK",
            ...at,
            ifName: "lo",
            config: withPrev(loNet(v), brPrev),
          });
          // A prevResult that does not match the kernel (CHK-3).
          type R = { interfaces?: { mac?: string; sandbox?: string }[]; ips?: unknown[] };
          const tamper: [string, (r: R, s: SideCtx) => R][] = [
            ["a wrong container MAC", (r) => ((r.interfaces![2]!.mac = "c2:00:00:00:00:01"), r)],
            ["a wrong bridge MAC", (r) => ((r.interfaces![0]!.mac = "c2:00:00:00:00:02"), r)],
            ["a wrong sandbox", (r, s) => ((r.interfaces![2]!.sandbox = s.netns(VERSIONS.length)), r)],
            ["no IPs", (r) => (delete r.ips, r)],
            [
              "an IP the interface lacks",
              (r) => (
                (r.ips = [{ address: "198.18.99.99/24", interface: 2, ...(v === "0.4.0" ? { version: "4" } : {}) }]), r
              ),
            ],
          ];
          for (const [label, edit] of tamper) {
            await expectSame(twin, `bridge CHECK with ${label}`, {
              plugin: "bridge",
              command: "CHECK",
              ...at,
              config: withPrev(br, brPrev, edit as never),
            });
          }
          await expectSame(twin, "ptp CHECK with a wrong MAC", {
            plugin: "ptp",
            command: "CHECK",
            ...at,
            ifName: "eth1",
            config: withPrev(
              pt,
              ptpPrev,
              (r) => (((r.interfaces as { mac: string }[])[1]!.mac = "c2:00:00:00:00:03"), r),
            ),
          });
          // The kernel no longer matching the result (CHK-3).
          await twin.sh((s) => s.world.containers[i]!, "ip route del 198.18.12" + (0 + i) + ".0/24");
          await expectSame(twin, "ptp CHECK after a route was removed", {
            plugin: "ptp",
            command: "CHECK",
            ...at,
            ifName: "eth1",
            config: withPrev(pt, ptpPrev),
          });
          await twin.sh((s) => s.world.containers[i]!, "ip addr flush dev eth1 scope global");
          await expectSame(twin, "ptp CHECK after the address was removed", {
            plugin: "ptp",
            command: "CHECK",
            ...at,
            ifName: "eth1",
            config: withPrev(pt, ptpPrev),
          });
          await twin.sh((s) => s.world.containers[i]!, "ip link del eth1");
          await expectSame(twin, "ptp CHECK after the interface was removed", {
            plugin: "ptp",
            command: "CHECK",
            ...at,
            ifName: "eth1",
            config: withPrev(pt, ptpPrev),
          });
          await twin.sh((s) => s.world.containers[i]!, "ip link set lo down");
          await expectSame(twin, "loopback CHECK with lo down", {
            plugin: "loopback",
            command: "CHECK",
            ...at,
            ifName: "lo",
            config: withPrev(loNet(v), brPrev),
          });
        }

        // DEL with and without prevResult, repeated (DEL-3, DEL-4), then a gone and an empty netns (DEL-2).
        await expectSame(twin, "bridge DEL", {
          plugin: "bridge",
          command: "DEL",
          ...at,
          config: v === "0.4.0" || v === "1.0.0" ? withPrev(br, brPrev) : br,
        });
        await expectSameState(twin, `bridge DEL at ${v}`);
        await expectSame(twin, "bridge DEL again", { plugin: "bridge", command: "DEL", ...at, config: br });
        await expectSame(twin, "ptp DEL", { plugin: "ptp", command: "DEL", ...at, ifName: "eth1", config: pt });
        await expectSame(twin, "ptp DEL again", { plugin: "ptp", command: "DEL", ...at, ifName: "eth1", config: pt });
        await expectSame(twin, "loopback DEL", {
          plugin: "loopback",
          command: "DEL",
          ...at,
          ifName: "lo",
          config: loNet(v),
        });
        for (const netns of ["missing", { raw: "" }] as const) {
          await expectSame(twin, `bridge DEL with netns ${JSON.stringify(netns)}`, {
            plugin: "bridge",
            command: "DEL",
            containerID: `gone-${i}`,
            netns,
            config: br,
          });
          await expectSame(twin, `ptp DEL with netns ${JSON.stringify(netns)}`, {
            plugin: "ptp",
            command: "DEL",
            containerID: `gone-${i}`,
            netns,
            config: pt,
          });
          await expectSame(twin, `loopback DEL with netns ${JSON.stringify(netns)}`, {
            plugin: "loopback",
            command: "DEL",
            containerID: `gone-${i}`,
            netns,
            ifName: "lo",
            config: loNet(v),
          });
        }
        await expectSameState(twin, `every DEL at ${v}`);
      },
      TIMEOUT_MS,
    );
  }

  test(
    "loopback ADD and DEL on its own, at 1.0.0 (LO-2, LO-3)",
    async () => {
      const at = { containerID: "lo-only", netns: VERSIONS.length, ifName: "lo" } as const;
      await expectSame(twin, "loopback ADD", { plugin: "loopback", command: "ADD", ...at, config: loNet("1.0.0") });
      await expectSameState(twin, "loopback ADD");
      await expectSame(twin, "loopback DEL", { plugin: "loopback", command: "DEL", ...at, config: loNet("1.0.0") });
      await expectSameState(twin, "loopback DEL");
    },
    TIMEOUT_MS,
  );

  test(
    "a promiscuous bridge without hairpin, and an IPv6-only one, as the reference sets them up (§8.1)",
    async () => {
      const at = { containerID: "promisc", netns: VERSIONS.length } as const;
      const promisc = (s: SideCtx) => ({
        ...bridgeNet(7, "1.0.0")(s),
        name: "tlife-promisc",
        bridge: "tlbrp",
        hairpinMode: false,
        promiscMode: true,
        isDefaultGateway: false,
        isGateway: true,
        mtu: 1450,
      });
      const v6 = (s: SideCtx) => ({
        ...bridgeNet(8, "1.0.0")(s),
        name: "tlife-v6",
        bridge: "tlbr6",
        ipam: { type: "host-local", subnet: "2001:db8:98::/64", dataDir: s.dataDir },
      });
      await expectSame(twin, "promisc ADD", { plugin: "bridge", command: "ADD", ...at, ifName: "ep", config: promisc });
      await expectSame(twin, "IPv6-only ADD", { plugin: "bridge", command: "ADD", ...at, ifName: "e6", config: v6 });
      const drop = [
        OUR_HOST_VETH_ACCEPT_DAD,
        await expectKeepAddrOnDown(twin, at.netns, "ep"),
        await expectKeepAddrOnDown(twin, at.netns, "e6"),
      ];
      await expectSameState(twin, "the promisc and IPv6-only ADDs", drop);
      await expectSame(twin, "promisc DEL", { plugin: "bridge", command: "DEL", ...at, ifName: "ep", config: promisc });
      await expectSame(twin, "IPv6-only DEL", { plugin: "bridge", command: "DEL", ...at, ifName: "e6", config: v6 });
      await expectSameState(twin, "the promisc and IPv6-only DELs");
    },
    TIMEOUT_MS,
  );

  test(
    "a second interface on the same network adds its routes as ECMP: IPv4 routes side by side, an IPv6 multipath default (H-2)",
    async () => {
      const at = { containerID: "ecmp", netns: VERSIONS.length } as const;
      const net = bridgeNet(5, "1.0.0");
      const [eth0, eth1] = [
        { ...at, ifName: "ea0" },
        { ...at, containerID: "ecmp-2", ifName: "ea1" },
      ];
      const first = await expectSame(twin, "first ADD", { plugin: "bridge", command: "ADD", ...eth0, config: net });
      const second = await expectSame(twin, "second ADD", { plugin: "bridge", command: "ADD", ...eth1, config: net });
      expect([first.reference.exit, second.reference.exit]).toEqual([0, 0]);
      const drop = [
        OUR_HOST_VETH_ACCEPT_DAD,
        await expectKeepAddrOnDown(twin, at.netns, "ea0"),
        await expectKeepAddrOnDown(twin, at.netns, "ea1"),
      ];
      await expectSameState(twin, "two interfaces on one network", drop);
      // The routes the state compares: both default routes, not only the first interface's.
      for (const side of SIDES) {
        const ns = twin.sides[side].world.containers[at.netns]!;
        const routes =
          (await run(["ip", "-n", ns, "-4", "route", "show", "default"])).stdout +
          (await run(["ip", "-n", ns, "-6", "route", "show", "default"])).stdout;
        expect({ side, routes }).toMatchObject({
          side,
          routes: expect.stringMatching(
            /default via \S+ dev ea1[^]*default via \S+ dev ea0[^]*nexthop via \S+ dev ea0[^]*nexthop via \S+ dev ea1/,
          ),
        });
      }
      await expectSame(twin, "second DEL", { plugin: "bridge", command: "DEL", ...eth1, config: net });
      await expectSameState(twin, "the second interface gone", [
        OUR_HOST_VETH_ACCEPT_DAD,
        await expectKeepAddrOnDown(twin, at.netns, "ea0"),
      ]);
      await expectSame(twin, "first DEL", { plugin: "bridge", command: "DEL", ...eth0, config: net });
      await expectSameState(twin, "both interfaces gone");
    },
    TIMEOUT_MS,
  );
});

describe.skipIf(skip !== undefined)("where our attachments differ on purpose", () => {
  test(
    "CHECK right after ADD passes when an IPAM route has no gateway; the reference's fails on its own route (CHK-4)",
    async () => {
      const at = { containerID: "nogw", netns: VERSIONS.length, ifName: "engw" } as const;
      const net = (s: SideCtx) => ({
        ...bridgeNet(9, "1.0.0")(s),
        name: "tlife-nogw",
        bridge: "tlbrg",
        ipam: {
          type: "host-local",
          subnet: "198.18.99.0/24",
          routes: [{ dst: "198.18.119.0/24" }],
          dataDir: s.dataDir,
        },
      });
      const add = await expectSame(twin, "ADD", { plugin: "bridge", command: "ADD", ...at, config: net });
      const check = await twin.call({
        plugin: "bridge",
        command: "CHECK",
        ...at,
        config: withPrev(net, resultsOf(add)),
      });
      expect(check.reference.error?.msg).toContain("not found in routing table");
      expect(check.ours.exit).toBe(0);
      await expectSame(twin, "DEL", { plugin: "bridge", command: "DEL", ...at, config: net });
    },
    TIMEOUT_MS,
  );

  test(
    "a bridge whose config has no DNS answers with IPAM's (§8.1 dns)",
    async () => {
      const at = { containerID: "ipamdns", netns: VERSIONS.length, ifName: "edns" } as const;
      const net = (s: SideCtx) => {
        const { dns: _dns, ...rest } = bridgeNet(6, "1.0.0")(s);
        return {
          ...rest,
          name: "tlife-dns",
          bridge: "tlbrd",
          ipam: {
            type: "host-local",
            subnet: "198.18.96.0/24",
            resolvConf: join(s.world.dir, "resolv.conf"),
            dataDir: s.dataDir,
          },
        };
      };
      const add = await twin.call({ plugin: "bridge", command: "ADD", ...at, config: net });
      const [reference, ours] = [add.reference.result, add.ours.result] as { dns?: unknown }[];
      const { dns: refDns, ...refRest } = reference ?? {};
      const { dns: ourDns, ...ourRest } = ours ?? {};
      expect(ourRest).toEqual(refRest);
      // v1.1.1 (Debian) differs: its bridge answers with the config's DNS only, here none; SPEC §8.1 follows upstream main
      expect({ reference: refDns, ours: ourDns }).toEqual({
        reference: {},
        ours: { nameservers: ["198.18.0.53"], domain: "x.test", search: ["a.test", "b.test"], options: ["ndots:2"] },
      });
      await expectSame(twin, "DEL", { plugin: "bridge", command: "DEL", ...at, config: net });
    },
    TIMEOUT_MS,
  );
});
