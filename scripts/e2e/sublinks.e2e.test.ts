/**
 * End-to-end: the compiled binary as `macvlan`, `ipvlan`, `vlan` and `dummy` on the real
 * kernel, through the CNI protocol alone, in throwaway namespaces. One end of a veth pair
 * in the "host" namespace plays the host NIC (the master): two macvlan containers in
 * bridge mode on it reach each other. This kernel has no ipvlan, 8021q or dummy link
 * kind: those ADDs fail as the reference's do here (code 999, `failed to create <kind>:
 * operation not supported`) and leave nothing behind, no temporary link and no IP
 * reservation (ADD-6). Addresses come from 198.18.0.0/15 only.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { firstMissing, missingFile, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import { BIN_DIR, type Call, World, callPlugin, linkNames, pingUntil, sh } from "./harness.ts";

const missing = firstMissing(
  missingRoot(),
  missingTools(["ip", "ping"]),
  missingFile(join(BIN_DIR, "macvlan"), "npm run build"),
  missingFile(join(BIN_DIR, "dummy"), "npm run build"),
);
const run = skipUnless("the interface plugins' real-kernel tests", missing) ? describe.skip : describe;

const reservations = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f !== "lock" && !f.startsWith("last_reserved_ip.")) : [];

run("the interface plugins on the real kernel", () => {
  let w: World;
  const dataDir = () => join(w.dir, "ipam");
  const net = (type: string, extra: Record<string, unknown> = {}) => ({
    cniVersion: "1.0.0",
    name: `e2e-${type}`,
    type,
    master: "nic0",
    ipam: { type: "host-local", ranges: [[{ subnet: "198.18.14.0/24" }]], dataDir: dataDir() },
    ...extra,
  });
  const call = (c: Partial<Call> & Pick<Call, "command" | "plugin" | "config">, i: number) =>
    callPlugin(w.host, { containerID: `ctr-${i}`, netns: w.netns(i), ...c });

  beforeAll(async () => {
    w = await World.create("e2e-sublink", 2);
    for (const cmd of [
      ["ip", "link", "add", "nic0", "type", "veth", "peer", "name", "nic1"],
      ["ip", "link", "set", "nic0", "up"],
      ["ip", "link", "set", "nic1", "up"],
    ]) {
      const r = await sh(w.host, cmd);
      if (r.code !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr}`);
    }
  });
  afterAll(async () => {
    await w?.close();
  });

  test("two macvlan containers in bridge mode on one master reach each other, CHECK passes, DEL leaves nothing", async () => {
    const conf = net("macvlan", { mode: "bridge" });
    const added = [];
    for (const i of [0, 1]) {
      const r = await call({ plugin: "macvlan", command: "ADD", config: conf }, i);
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
      added.push(
        JSON.parse(r.stdout) as { ips: { address: string }[]; interfaces: { name: string; sandbox: string }[] },
      );
    }
    expect(added[0]?.interfaces).toEqual([
      { name: "eth0", mac: expect.stringMatching(/^[0-9a-f:]{17}$/), sandbox: w.netns(0) },
    ] as never);
    const link = JSON.parse((await sh(w.containers[0]!, ["ip", "-d", "-j", "link", "show", "eth0"])).stdout) as {
      linkinfo: { info_kind: string; info_data: { mode: string } };
    }[];
    expect(link[0]?.linkinfo).toMatchObject({ info_kind: "macvlan", info_data: { mode: "bridge" } });
    const peer = added[1]!.ips[0]!.address.split("/")[0]!;
    expect(await pingUntil(w.containers[0]!, peer, 20)).toBe(true);
    for (const i of [0, 1]) {
      const r = await call({ plugin: "macvlan", command: "CHECK", config: { ...conf, prevResult: added[i] } }, i);
      expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: "" });
    }
    for (const i of [0, 1, 1])
      expect((await call({ plugin: "macvlan", command: "DEL", config: conf }, i)).code).toBe(0);
    expect(await linkNames(w.containers[0]!)).toEqual(["lo"]);
    expect(await linkNames(w.containers[1]!)).toEqual(["lo"]);
    expect(reservations(join(dataDir(), "e2e-macvlan"))).toEqual([]);
  }, 60_000);

  test("a macvlan ADD whose IPAM fails after the link is made removes the link again (ADD-6)", async () => {
    const r = await call(
      { plugin: "macvlan", command: "ADD", config: net("macvlan", { ipam: { type: "tscni-no-such-ipam" } }) },
      0,
    );
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).msg).toContain("tscni-no-such-ipam");
    expect(await linkNames(w.containers[0]!)).toEqual(["lo"]);
  }, 30_000);

  for (const kind of ["ipvlan", "vlan", "dummy"] as const) {
    test(`${kind}: this kernel lacks the kind, so ADD fails as the reference's does and leaves no link and no reservation`, async () => {
      const hostBefore = await linkNames(w.host);
      const r = await call({ plugin: kind, command: "ADD", config: net(kind, { vlanId: 7 }) }, 0);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({
        code: 999,
        msg: `failed to create ${kind}: operation not supported`,
      });
      expect(await linkNames(w.containers[0]!)).toEqual(["lo"]);
      expect(await linkNames(w.host)).toEqual(hostBefore);
      expect(reservations(join(dataDir(), `e2e-${kind}`))).toEqual([]);
      // DEL after the failed ADD (LC-3) succeeds and still leaves nothing.
      expect((await call({ plugin: kind, command: "DEL", config: net(kind, { vlanId: 7 }) }, 0)).code).toBe(0);
    }, 30_000);
  }
});
