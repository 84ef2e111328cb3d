/**
 * The driver's own idea of HOST (the namespace the process runs in), its nsenter fallback,
 * and the printed script as a dry run that really runs. Each test runs a process under
 * `ip netns exec <throwaway>`, so HOST is a throwaway namespace, never the machine's.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { firstMissing, missingRoot, missingTools, skipUnless } from "@tscni/spec/testing";
import type { LinkInfo } from "../kernel.ts";
import { HOST, type KernelBatch } from "../ops.ts";
import { renderBatch } from "../render.ts";
import { createLinuxKernel } from "./driver.ts";
import { createThrowawayNetns, deleteThrowawayNetns, type ThrowawayNetns } from "../testing/throwaway.ts";

const skip = skipUnless("HOST on the real kernel", firstMissing(missingRoot(), missingTools(["ip"])));

const fixture = new URL("../testing/apply-stdin.ts", import.meta.url).pathname;

function inNetns(ns: ThrowawayNetns, argv: string[], stdin: string): string {
  const r = Bun.spawnSync(["ip", "netns", "exec", ns.name, ...argv], {
    stdin: new TextEncoder().encode(stdin),
    stderr: "pipe",
  });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

describe.skipIf(skip)("HOST on the real kernel", () => {
  const made: ThrowawayNetns[] = [];
  let host: ThrowawayNetns;
  let ctr: ThrowawayNetns;
  beforeAll(() => {
    host = createThrowawayNetns("k");
    ctr = createThrowawayNetns("k");
    made.push(host, ctr);
  });
  afterAll(() => made.forEach(deleteThrowawayNetns));

  for (const mode of ["setns", "nsenter", "netlink"] as const) {
    test(`with ${mode}, a veth made in a container puts its peer in the process's own namespace`, async () => {
      const batch: KernelBatch = [
        { op: "veth.add", ns: ctr.path, name: `c-${mode}`, peer: { name: `h-${mode}`, ns: HOST } },
        { op: "link.set", ns: HOST, name: `h-${mode}`, up: true },
      ];
      const out = JSON.parse(inNetns(host, [process.execPath, fixture, mode], JSON.stringify(batch)));
      expect((out as LinkInfo[]).find((l) => l.name === `h-${mode}`)).toMatchObject({ kind: "veth", up: true });
      // Seen from outside: the peer is in the throwaway host namespace.
      const k = createLinuxKernel({ host: host.path });
      expect((await k.links(HOST)).some((l) => l.name === `h-${mode}`)).toBe(true);
      expect((await k.links(ctr.path)).some((l) => l.name === `c-${mode}`)).toBe(true);
      // And a failure inside the container namespace reports its op.
      const err = JSON.parse(
        inNetns(
          host,
          [process.execPath, fixture, mode],
          JSON.stringify([batch[1], { op: "link.del", ns: ctr.path, name: "nope" }]),
        ),
      );
      expect(err).toMatchObject({ kind: "not-found", opIndex: 1 });
    });
  }

  test("the printed script, run by a shell, makes the same state as the driver", async () => {
    const a = createThrowawayNetns("k");
    const b = createThrowawayNetns("k");
    made.push(a, b);
    const batch = (c: string): KernelBatch => [
      { op: "bridge.add", ns: HOST, name: "br0", mtu: 1450 },
      { op: "link.set", ns: HOST, name: "br0", up: true },
      { op: "veth.add", ns: c, name: "eth0", mtu: 1450, peer: { name: "vp0", ns: HOST } },
      { op: "link.set", ns: HOST, name: "vp0", master: "br0", up: true },
      { op: "bridge-port.set", ns: HOST, name: "vp0", hairpin: true },
      { op: "link.set", ns: c, name: "eth0", up: true },
      { op: "addr.add", ns: c, dev: "eth0", cidr: "198.18.0.5/24", nodad: true },
      { op: "route.add", ns: c, dst: "0.0.0.0/0", gw: "198.18.0.1" },
      { op: "sysctl.set", ns: c, key: "net.ipv4.conf.eth0.arp_notify", value: "1" },
    ];
    // One pair (host, ctr) through the driver, the other (a, b) through the script.
    await createLinuxKernel({ host: host.path }).apply(batch(ctr.path));
    inNetns(a, ["sh"], renderBatch(batch(b.path)));
    const snap = async (h: string, c: string) => {
      const k = createLinuxKernel({ host: h });
      const links = (ns: string) =>
        k.links(ns).then((ls) => ls.map((l) => [l.name, l.kind, l.up, l.mtu, l.master, l.hairpin]).sort());
      return {
        host: (await links(HOST)).filter((l) => ["br0", "vp0"].includes(String(l[0]))),
        ctr: (await links(c)).filter((l) => l[0] === "eth0"),
        addrs: (await k.addresses(c, "eth0")).filter((x) => x.family === 4),
        routes: await k.routes(c, 4),
        sysctl: await k.sysctl(c, "net.ipv4.conf.eth0.arp_notify"),
      };
    };
    const viaDriver = await snap(host.path, ctr.path);
    expect(viaDriver.sysctl).toBe("1");
    expect(await snap(a.path, b.path)).toEqual(viaDriver);
  });
});
