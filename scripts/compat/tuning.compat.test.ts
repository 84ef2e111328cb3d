/**
 * tuning next to the reference's (Debian v1.1.1) on the real kernel, in throwaway
 * namespaces (issue 12 item 5): one container namespace per side, each with an `eth0`
 * veth of the same MAC; the same ADD prints the same result, leaves the same link (MAC,
 * MTU, promiscuity, all-multicast, flags), the same sysctls and a byte-identical backup
 * file; the reference's ADD then our DEL, and our ADD then the reference's DEL, give the
 * link back as it was; both CHECKs pass after either ADD; refusals carry the same message.
 * v1.1.1 has no `txQLen` (upstream main's), and its CHECK does not substitute IFNAME,
 * so those stay out of the shared cases. Removed before comparing: libcni v1.1's
 * `"dns":{}`, and error codes (the reference's plain errors are all 999).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { World, sh } from "../e2e/harness.ts";
import { OUR_BIN_DIR, REFERENCE_PLUGINS, announceSkip, isRoot, missingReference } from "./_reference.ts";

const missing =
  missingReference({ go: false }) ??
  (existsSync(join(REFERENCE_PLUGINS, "tuning"))
    ? undefined
    : `missing ${REFERENCE_PLUGINS}/tuning (apt-get install containernetworking-plugins)`);
const skip = missing ?? (isRoot() ? undefined : "not root (the cases create network namespaces)");
announceSkip("tuning.compat.test.ts", skip);

const MAC0 = "02:00:00:00:30:01";

/** Runs `<dir>/tuning` in the world's host namespace as a runtime would. */
async function tuning(dir: string, w: World, command: string, netns: string, config: object, cniArgs = "") {
  const env = {
    PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin",
    CNI_COMMAND: command,
    CNI_CONTAINERID: "ctr-tn",
    CNI_NETNS: netns,
    CNI_IFNAME: "eth0",
    CNI_PATH: dir,
    CNI_ARGS: cniArgs,
  };
  const proc = Bun.spawn(["ip", "netns", "exec", w.host, join(dir, "tuning")], {
    env,
    stdin: new TextEncoder().encode(JSON.stringify(config)),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { code, stdout };
}

/** The link attributes tuning touches, as `ip -d -j link` shows them. */
async function linkState(ns: string): Promise<Record<string, unknown>> {
  const r = await sh(ns, ["ip", "-d", "-j", "link", "show", "dev", "eth0"]);
  const l = (JSON.parse(r.stdout) as Record<string, unknown>[])[0] ?? {};
  return {
    address: l.address,
    mtu: l.mtu,
    flags: l.flags,
    promiscuity: l.promiscuity,
    allmulti: l.allmulti,
    txqlen: l.txqlen,
  };
}

async function sysctls(ns: string): Promise<string> {
  const keys = ["net/ipv4/conf/eth0/arp_notify", "net/ipv4/conf/eth0/proxy_arp", "net/ipv6/conf/eth0/accept_ra"];
  return (await sh(ns, ["cat", ...keys.map((k) => `/proc/sys/${k}`)])).stdout;
}

/** A fresh `eth0` (peer on the host side) in container `i`, up, with MAC0. */
async function freshEth0(w: World, i: number): Promise<void> {
  const c = w.containers[i]!;
  await sh(w.host, ["ip", "link", "del", `tn${i}`]);
  for (const cmd of [
    ["ip", "link", "add", `tn${i}`, "type", "veth", "peer", "name", "eth0", "netns", w.netns(i)],
    ["ip", "-n", c, "link", "set", "eth0", "address", MAC0, "up"],
  ]) {
    const r = await sh(w.host, cmd);
    if (r.code !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr}`);
  }
}

function comparable(r: { code: number; stdout: string }, netns: string): unknown {
  if (r.stdout === "") return { exit: r.code };
  const out = JSON.parse(r.stdout.replaceAll(netns, "NETNS")) as Record<string, unknown>;
  if (r.code !== 0) return { exit: r.code, msg: out.msg };
  const { dns, ...rest } = out;
  return { exit: 0, ...rest, ...(dns !== undefined && Object.keys(dns as object).length > 0 ? { dns } : {}) };
}

const conf = (w: World, i: number, dataDir: string, extra: Record<string, unknown>) => ({
  cniVersion: "1.0.0",
  name: "tn-compat",
  type: "tuning",
  dataDir,
  ...extra,
  prevResult: {
    cniVersion: "1.0.0",
    interfaces: [{ name: "tnhost" }, { name: "eth0", sandbox: w.netns(i) }],
    ips: [{ address: "198.18.50.5/24", interface: 1 }],
  },
});

const SHARED: Record<string, unknown>[] = [
  { mtu: 1400 },
  { mac: "02:00:00:00:30:aa", promisc: true },
  { allmulti: true, sysctl: { "net.ipv4.conf.eth0.arp_notify": "1", "net.ipv4.conf.IFNAME.proxy_arp": "1" } },
  {
    mac: "02-00-00-00-30-BB",
    mtu: 9000,
    promisc: true,
    allmulti: false,
    sysctl: { "net.ipv6.conf.IFNAME.accept_ra": "0" },
  },
  { args: { cni: { mtu: 1300, mac: "02:00:00:00:30:cc" } }, mtu: 1500 },
];

describe.skipIf(skip !== undefined)("tuning against the reference v1.1.1", () => {
  let w: World;
  const dataDir = (side: string) => join(w.dir, side);
  const ref = (command: string, i: number, extra: Record<string, unknown>, dir = dataDir("ref"), args = "") =>
    tuning(REFERENCE_PLUGINS, w, command, w.netns(i), conf(w, i, dir, extra), args);
  const ours = (command: string, i: number, extra: Record<string, unknown>, dir = dataDir("our"), args = "") =>
    tuning(OUR_BIN_DIR, w, command, w.netns(i), conf(w, i, dir, extra), args);

  beforeAll(async () => {
    w = await World.create("ctn", 2);
    mkdirSync(dataDir("ref"));
    mkdirSync(dataDir("our"));
  });
  afterAll(async () => {
    await w?.close();
  });

  for (const extra of SHARED) {
    test(`the same ADD prints the same result and leaves the same link, sysctls and backup file (${JSON.stringify(extra)})`, async () => {
      await freshEth0(w, 0);
      await freshEth0(w, 1);
      const baseline = await linkState(w.containers[0]!);
      const r = await ref("ADD", 0, extra);
      const o = await ours("ADD", 1, extra);
      expect(r.code).toBe(0);
      expect(comparable(o, w.netns(1))).toEqual(comparable(r, w.netns(0)));
      expect(await linkState(w.containers[1]!)).toEqual(await linkState(w.containers[0]!));
      expect(await sysctls(w.containers[1]!)).toEqual(await sysctls(w.containers[0]!));
      const file = "ctr-tn_eth0.json";
      expect(existsSync(join(dataDir("our"), file))).toBe(existsSync(join(dataDir("ref"), file)));
      if (existsSync(join(dataDir("ref"), file)))
        expect(readFileSync(join(dataDir("our"), file), "utf8")).toBe(readFileSync(join(dataDir("ref"), file), "utf8"));
      // Both CHECKs answer alike on either side's ADD (a MAC not in Go's String() form fails both).
      // v1.1.1 (Debian) differs: its CHECK reads IFNAME keys literally (fixed upstream by getSysctlFilename), so they are left out there
      const ifnameKeys = JSON.stringify(extra).includes("IFNAME");
      for (const i of [0, 1]) {
        const co = await ours("CHECK", i, extra);
        if (!String(extra.mac ?? "02:").includes("-")) expect([co.code, co.stdout]).toEqual([0, ""]);
        if (!ifnameKeys)
          expect(comparable(co, w.netns(i))).toEqual(comparable(await ref("CHECK", i, extra), w.netns(i)));
      }
      // Each DEL restores the other's ADD, from the other's backup file.
      expect((await ours("DEL", 0, extra, dataDir("ref"))).code).toBe(0);
      expect((await ref("DEL", 1, extra, dataDir("our"))).code).toBe(0);
      expect(await linkState(w.containers[0]!)).toEqual(baseline);
      expect(await linkState(w.containers[1]!)).toEqual(baseline);
      expect(readdirSync(dataDir("ref"))).toEqual([]);
      expect(readdirSync(dataDir("our"))).toEqual([]);
    });
  }

  test("the MAC from CNI_ARGS and the mac capability win as on the reference", async () => {
    await freshEth0(w, 0);
    await freshEth0(w, 1);
    const extra = { mac: "02:00:00:00:30:01", runtimeConfig: { mac: "02:00:00:00:30:dd" } };
    const r = await ref("ADD", 0, extra, dataDir("ref"), "IgnoreUnknown=1;MAC=02:00:00:00:30:ee");
    const o = await ours("ADD", 1, extra, dataDir("our"), "IgnoreUnknown=1;MAC=02:00:00:00:30:ee");
    expect(comparable(o, w.netns(1))).toEqual(comparable(r, w.netns(0)));
    expect(await linkState(w.containers[1]!)).toEqual(await linkState(w.containers[0]!));
    expect((await ref("DEL", 0, extra)).code).toBe(0);
    expect((await ours("DEL", 1, extra)).code).toBe(0);
  });

  test("CHECK fails alike on a changed MTU", async () => {
    await freshEth0(w, 0);
    await freshEth0(w, 1);
    expect((await ref("ADD", 0, { mtu: 1400 })).code).toBe(0);
    expect((await ours("ADD", 1, { mtu: 1400 })).code).toBe(0);
    await sh(w.containers[0]!, ["ip", "link", "set", "eth0", "mtu", "1450"]);
    await sh(w.containers[1]!, ["ip", "link", "set", "eth0", "mtu", "1450"]);
    const r = await ref("CHECK", 0, { mtu: 1400 });
    const o = await ours("CHECK", 1, { mtu: 1400 });
    expect(r.code).toBe(1);
    expect(comparable(o, w.netns(1))).toEqual(comparable(r, w.netns(0)));
    await ref("DEL", 0, { mtu: 1400 });
    await ours("DEL", 1, { mtu: 1400 });
  });

  test("refusals carry the reference's message", async () => {
    await freshEth0(w, 0);
    await freshEth0(w, 1);
    // The kernel refusals (an MTU below the minimum, a multicast MAC) leave the reference half-applied; we roll back.
    for (const extra of [
      { mac: "zz" },
      { mtu: "x" },
      { sysctl: { "net.ipv4.conf.eth0.no_such_key": "1" } },
      { mtu: 10 },
      { mac: "01:00:00:00:00:01" },
    ]) {
      const r = await ref("ADD", 0, extra);
      const o = await ours("ADD", 1, extra);
      expect(r.code).toBe(1);
      expect(comparable(o, w.netns(1))).toEqual(comparable(r, w.netns(0)));
    }
    const noPrev = { cniVersion: "1.0.0", name: "tn-compat", type: "tuning", mtu: 1400 };
    const r = await tuning(REFERENCE_PLUGINS, w, "ADD", w.netns(0), noPrev);
    const o = await tuning(OUR_BIN_DIR, w, "ADD", w.netns(1), noPrev);
    expect(comparable(o, w.netns(1))).toEqual(comparable(r, w.netns(0)));
  });

  test("DEL without a backup, twice, or with the namespace gone succeeds on both sides (DEL-2, DEL-3)", async () => {
    for (const netns of [w.netns(0), "/var/run/netns/tscni-tn-gone"]) {
      for (const dir of [REFERENCE_PLUGINS, OUR_BIN_DIR]) {
        const c = conf(w, 0, dataDir("our"), { mtu: 1400 });
        expect((await tuning(dir, w, "DEL", netns, c)).code).toBe(0);
        expect((await tuning(dir, w, "DEL", netns, c)).code).toBe(0);
      }
    }
  });
});
