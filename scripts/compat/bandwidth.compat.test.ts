/**
 * bandwidth next to the reference's (Debian v1.1.1, whose netlink calls upstream main
 * keeps) on the real kernel, in throwaway namespaces: the same ADD prints the same result
 * and leaves the same `tc qdisc show` and `tc filter show`; each DELs the other's ADD (no
 * ifb left), each CHECKs the other's qdiscs alike; invalid configs fail with the same
 * message (issue 12 items 2 and 5).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { World, sh } from "../e2e/harness.ts";
import { runInHost } from "./_run-in-host.ts";
import { OUR_BIN_DIR, REFERENCE_PLUGINS, announceSkip, isRoot, missingReference } from "./_reference.ts";

const missing =
  missingReference({ go: false }) ??
  (existsSync(join(REFERENCE_PLUGINS, "bandwidth"))
    ? undefined
    : `missing ${REFERENCE_PLUGINS}/bandwidth (apt-get install containernetworking-plugins)`);
const skip = missing ?? (isRoot() ? undefined : "not root (the cases create network namespaces)");
announceSkip("bandwidth.compat.test.ts", skip);

const HOST_VETH = "tscnibw1";
const CID = "ctr-bw";

function conf(containerNs: string, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    cniVersion: "1.0.0",
    name: "bw-compat",
    type: "bandwidth",
    ...extra,
    prevResult: {
      cniVersion: "1.0.0",
      interfaces: [
        { name: HOST_VETH, mac: "02:00:00:00:00:01" },
        { name: "eth0", mac: "02:00:00:00:00:02", sandbox: containerNs },
      ],
      ips: [{ address: "198.18.90.2/24", gateway: "198.18.90.1", interface: 1 }],
    },
  };
}

/** Runs `<dir>/bandwidth` in `host` as a runtime would. */
function bandwidth(dir: string, host: string, command: string, netns: string, config: object) {
  return runInHost(dir, "bandwidth", host, { command, containerID: CID, netns }, config);
}

/** What `tc` shows of the host: every qdisc and the host end's ingress filter. */
async function tcState(ns: string): Promise<string> {
  const q = (await sh(ns, ["tc", "qdisc", "show"])).stdout;
  const f = (await sh(ns, ["tc", "filter", "show", "dev", HOST_VETH, "ingress"])).stdout;
  return `${q}${f}`;
}

const ifbs = async (ns: string): Promise<string[]> =>
  (await sh(ns, ["ip", "-o", "link", "show", "type", "ifb"])).stdout.match(/bwp[0-9a-f]{12}/g) ?? [];

async function veth(w: World): Promise<void> {
  for (const [ns, cmd] of [
    [
      w.host,
      [
        "ip",
        "link",
        "add",
        HOST_VETH,
        "mtu",
        "1450",
        "type",
        "veth",
        "peer",
        "name",
        "eth0",
        "netns",
        w.containers[0]!,
      ],
    ],
    [w.host, ["ip", "link", "set", HOST_VETH, "up"]],
    [w.containers[0]!, ["ip", "link", "set", "eth0", "up"]],
  ] as const) {
    const r = await sh(ns, [...cmd]);
    if (r.code !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr}`);
  }
}

/** Removes what an ADD left (a failed case must not spill into the next). */
async function reset(w: World): Promise<void> {
  for (const where of ["root", "ingress"]) await sh(w.host, ["tc", "qdisc", "del", "dev", HOST_VETH, where]);
  for (const ifb of await ifbs(w.host)) await sh(w.host, ["ip", "link", "del", ifb]);
}

const SHAPES: Record<string, unknown>[] = [
  { ingressRate: 8_000_000, ingressBurst: 80_000, egressRate: 16_000_000, egressBurst: 160_000 },
  { egressRate: 40_000_000_000, egressBurst: 8_000_000 },
  { ingressRate: 1_000_000, ingressBurst: 12_345 },
  { egressRate: 123_456_789, egressBurst: 987_654_321 },
];

describe.skipIf(skip !== undefined)("bandwidth against the reference v1.1.1", () => {
  let ref: World;
  let ours: World;
  const refBw = (c: string, cfg: object, w = ref) => bandwidth(REFERENCE_PLUGINS, w.host, c, w.netns(0), cfg);
  const ourBw = (c: string, cfg: object, w = ours) => bandwidth(OUR_BIN_DIR, w.host, c, w.netns(0), cfg);

  beforeAll(async () => {
    ref = await World.create("cbw-ref", 1);
    ours = await World.create("cbw-our", 1);
    await veth(ref);
    await veth(ours);
  });
  afterAll(async () => {
    await ref?.close();
    await ours?.close();
  });

  for (const shape of SHAPES) {
    test(`the same ADD prints the same result and leaves the same qdiscs and filter (${JSON.stringify(shape)})`, async () => {
      try {
        const r = await refBw("ADD", conf(ref.netns(0), shape));
        const o = await ourBw("ADD", conf(ours.netns(0), shape));
        expect([r.code, o.code]).toEqual([0, 0]);
        // libcni v1.1 prints an empty "dns":{} on 1.0.0 results; each ifb has its own random MAC.
        const { dns, ...refResult } = JSON.parse(r.stdout.replaceAll(ref.netns(0), ours.netns(0))) as Record<
          string,
          unknown
        >;
        expect(dns).toEqual({});
        const strip = (x: unknown) =>
          JSON.parse(
            JSON.stringify(x)
              .replace(/"mac":"[0-9a-f:]{17}","name":"bwp/, '"name":"bwp')
              .replace(/("name":"bwp[0-9a-f]{12}"),"mac":"[0-9a-f:]{17}"/, "$1"),
          );
        expect(strip(JSON.parse(o.stdout))).toEqual(strip(refResult));
        expect(await tcState(ours.host)).toBe(await tcState(ref.host));
        // Each CHECKs the other's qdiscs alike.
        const [refOnOurs, ourOnRef] = [
          await refBw("CHECK", conf(ours.netns(0), shape), ours),
          await ourBw("CHECK", conf(ref.netns(0), shape), ref),
        ];
        expect([refOnOurs.code, refOnOurs.stdout]).toEqual([0, ""]);
        expect([ourOnRef.code, ourOnRef.stdout]).toEqual([0, ""]);
        // Each DELs the other's ADD: no ifb is left.
        expect((await ourBw("DEL", conf(ref.netns(0), shape), ref)).code).toBe(0);
        expect((await refBw("DEL", conf(ours.netns(0), shape), ours)).code).toBe(0);
        expect(await ifbs(ref.host)).toEqual([]);
        expect(await ifbs(ours.host)).toEqual([]);
      } finally {
        await reset(ref);
        await reset(ours);
      }
    });
  }

  test("an ADD the kernel refuses fails with the reference's message, and leaves nothing behind (the reference leaves its first steps)", async () => {
    // A 7-bit burst is 0 bytes: the kernel refuses the ifb's tbf, the last step.
    const shape = {
      runtimeConfig: {
        bandwidth: { ingressRate: 100_000, ingressBurst: 1_000_000, egressRate: 3_000_000, egressBurst: 7 },
      },
    };
    try {
      const r = await refBw("ADD", conf(ref.netns(0), shape));
      const o = await ourBw("ADD", conf(ours.netns(0), shape));
      expect([o.code, JSON.parse(o.stdout).msg]).toEqual([r.code, JSON.parse(r.stdout).msg]);
      expect(JSON.parse(o.stdout).msg).toBe("create ifb qdisc: create qdisc: invalid argument");
      expect(await ifbs(ref.host)).toHaveLength(1);
      // ADD-6: no ifb, no qdisc of ours is left.
      expect(await ifbs(ours.host)).toEqual([]);
      expect((await sh(ours.host, ["tc", "qdisc", "show", "dev", HOST_VETH])).stdout).not.toMatch(/tbf|ingress/);
    } finally {
      await reset(ref);
      await reset(ours);
    }
  });

  test("a second ADD fails alike on the qdisc the first left", async () => {
    const shape = SHAPES[0]!;
    try {
      for (const run of [refBw, ourBw])
        expect((await run("ADD", conf((run === refBw ? ref : ours).netns(0), shape))).code).toBe(0);
      const r = await refBw("ADD", conf(ref.netns(0), shape));
      const o = await ourBw("ADD", conf(ours.netns(0), shape));
      expect([o.code, JSON.parse(o.stdout).msg]).toEqual([r.code, JSON.parse(r.stdout).msg]);
      // The failed second ADD took nothing of the first one's away.
      expect(await tcState(ours.host)).toBe(await tcState(ref.host));
    } finally {
      await reset(ref);
      await reset(ours);
    }
  });

  test("CHECK fails alike on a tampered tbf", async () => {
    const shape = SHAPES[0]!;
    try {
      expect((await refBw("ADD", conf(ref.netns(0), shape))).code).toBe(0);
      expect((await ourBw("ADD", conf(ours.netns(0), shape))).code).toBe(0);
      for (const w of [ref, ours]) {
        await sh(w.host, ["tc", "qdisc", "del", "dev", HOST_VETH, "root"]);
        await sh(w.host, [
          "tc",
          "qdisc",
          "add",
          "dev",
          HOST_VETH,
          "root",
          "handle",
          "1:",
          "tbf",
          "rate",
          "9mbit",
          "burst",
          "10000",
          "limit",
          "35000",
        ]);
      }
      const r = await refBw("CHECK", conf(ref.netns(0), shape));
      const o = await ourBw("CHECK", conf(ours.netns(0), shape));
      expect([o.code, JSON.parse(o.stdout).msg]).toEqual([r.code, JSON.parse(r.stdout).msg]);
      expect(JSON.parse(o.stdout).msg).toBe("Rate doesn't match");
    } finally {
      await reset(ref);
      await reset(ours);
    }
  });

  test("ADD and CHECK fail alike without a veth peer or a netns", async () => {
    const shape = SHAPES[0]!;
    const run = async (dir: string, w: World, command: string, netns: string, ifName: string) => {
      const env = {
        PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin",
        CNI_COMMAND: command,
        CNI_CONTAINERID: CID,
        CNI_NETNS: netns,
        CNI_IFNAME: ifName,
        CNI_PATH: dir,
      };
      const proc = Bun.spawn(["ip", "netns", "exec", w.host, join(dir, "bandwidth")], {
        env,
        stdin: new TextEncoder().encode(JSON.stringify(conf(netns, shape))),
        stdout: "pipe",
      });
      const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
      return [code, (JSON.parse(stdout) as { msg: string }).msg.replaceAll(w.netns(0), "NETNS")];
    };
    for (const command of ["ADD", "CHECK"]) {
      for (const [netns, ifName] of [
        ["", "lo"],
        ["", "eth9"],
        ["/var/run/netns/tscni-bw-gone", "eth0"],
      ] as const) {
        const r = await run(REFERENCE_PLUGINS, ref, command, netns || ref.netns(0), ifName);
        const o = await run(OUR_BIN_DIR, ours, command, netns || ours.netns(0), ifName);
        expect(o).toEqual(r);
      }
    }
    expect(await ifbs(ours.host)).toEqual([]);
  });

  for (const bad of [
    { ingressRate: 1000 },
    { egressBurst: 1000 },
    { egressRate: 1, egressBurst: 34_359_738_360 },
    { ingressRate: -1 },
    { runtimeConfig: { bandwidth: { egressRate: "x" } } },
    { runtimeConfig: 5 },
    { runtimeConfig: { bandwidth: [1] } },
  ]) {
    test(`an invalid config fails with the reference's message (${JSON.stringify(bad)})`, async () => {
      const r = await refBw("ADD", conf(ref.netns(0), bad));
      const o = await ourBw("ADD", conf(ours.netns(0), bad));
      expect([o.code, r.code]).toEqual([1, 1]);
      // v1.1.1 (Debian) differs: code 999 for a plain error; SPEC §4.2 gives code 7 (invalid network config)
      expect(JSON.parse(o.stdout).code).toBe(7);
      expect(JSON.parse(o.stdout).msg).toBe(JSON.parse(r.stdout).msg);
      expect(await ifbs(ours.host)).toEqual([]);
    });
  }
});
