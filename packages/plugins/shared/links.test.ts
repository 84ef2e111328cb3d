import { describe, expect, test } from "bun:test";
import { HOST, type Kernel, type KernelOp } from "@tscni/kernel";
import { FakeKernel } from "@tscni/kernel/fake";
import type { CmdArgs } from "@tscni/skel";
import type { Result100 } from "@tscni/spec";
import { bridgeHandlers } from "../bridge/index.ts";
import { ptpHandlers } from "../ptp/index.ts";
import type { Ipam } from "./ipam.ts";
import { linksNamed } from "./links.ts";
import type { PluginPorts } from "./ports.ts";
import { FakeFirewall } from "@tscni/firewall/fake";

const NS = "/var/run/netns/ctr";

/** A host with a bridge and three ports; a container with `lo` only. */
function machine(): FakeKernel {
  const k = new FakeKernel();
  k.addNetns(NS);
  const ops: KernelOp[] = [{ op: "bridge.add", ns: HOST, name: "br0" }];
  for (const i of [1, 2, 3])
    ops.push(
      { op: "veth.add", ns: HOST, name: `v${i}`, peer: { name: `p${i}`, ns: HOST } },
      { op: "link.set", ns: HOST, name: `v${i}`, master: "br0" },
    );
  k.applySync(ops);
  return k;
}

describe("linksNamed", () => {
  test("answers a lookup by name as the whole dump would, each link once", async () => {
    const k = machine();
    const all = await k.links(HOST);
    for (const names of [
      [],
      ["br0"],
      ["v1", "nope", "v1"],
      ["lo", "br0", "v1", "v2", "v3", "p1", "p2", "p3", "nope"],
    ]) {
      const got = await linksNamed(k, HOST, names);
      expect(got.map((l) => l.name).sort()).toEqual(
        all
          .filter((l) => names.includes(l.name))
          .map((l) => l.name)
          .sort(),
      );
      for (const l of got) expect(l).toEqual(all.find((a) => a.name === l.name)!);
    }
  });

  test("reads by name when names are few and dumps once when they are many", async () => {
    const k = machine();
    const calls: string[] = [];
    const spy: Kernel = {
      apply: (b) => k.apply(b),
      netnsExists: (n) => k.netnsExists(n),
      links: (n) => (calls.push("links"), k.links(n)),
      link: (n, name) => (calls.push(`link ${name}`), k.link(n, name)),
      addresses: (n, d) => k.addresses(n, d),
      routes: (n, f) => k.routes(n, f),
      rules: (n, f) => k.rules(n, f),
      sysctl: (n, key) => k.sysctl(n, key),
      qdiscs: (n, dev) => k.qdiscs(n, dev),
    };
    await linksNamed(spy, HOST, ["br0", "v1"]);
    expect(calls).toEqual(["link br0", "link v1"]);
    calls.length = 0;
    await linksNamed(
      spy,
      HOST,
      Array.from({ length: 9 }, (_, i) => `x${i}`),
    );
    expect(calls).toEqual(["links"]);
  });
});

/** Bytes 1, 2, 3, ...: the first host veth name is veth01020304. */
function counting(): (n: number) => Uint8Array {
  let next = 1;
  return (n) => Uint8Array.from({ length: n }, () => next++ & 0xff);
}

const memoryIpam = (): Ipam => ({
  add: async (): Promise<Result100> => ({
    cniVersion: "1.1.0",
    ips: [{ address: "198.18.0.2/24", gateway: "198.18.0.1" }],
  }),
  check: async () => {},
  del: async () => {},
  status: async () => {},
  gc: async () => {},
});

function args(type: string, extra: Record<string, unknown> = {}): CmdArgs {
  const config = { cniVersion: "1.1.0", name: "n", type, ipam: { type: "memory" }, ...extra };
  return {
    command: "ADD",
    containerID: "c",
    netns: NS,
    ifName: "eth0",
    args: "",
    path: "/opt/cni/bin",
    stdinData: new TextEncoder().encode(JSON.stringify(config)),
    config,
  };
}

describe("a host veth name another link already has", () => {
  for (const [plugin, handlers, extra] of [
    ["bridge", bridgeHandlers, { bridge: "br0" }],
    ["ptp", ptpHandlers, {}],
  ] as const) {
    test(`is picked anew by ${plugin} ADD, though the view reads only the links the plan names`, async () => {
      const k = new FakeKernel();
      k.addNetns(NS);
      // The first random name is taken by a link the view does not read.
      k.applySync([{ op: "veth.add", ns: HOST, name: "veth01020304", peer: { name: "other", ns: HOST } }]);
      const ports: PluginPorts = {
        kernel: k,
        firewall: new FakeFirewall(),
        ipam: memoryIpam,
        random: counting(),
        sleep: async () => {},
        warn: () => {},
      };
      const result = (await handlers(ports).add!(args(plugin, extra))) as Result100;
      const hostVeth = result.interfaces?.find((i) => i.sandbox === undefined && i.name.startsWith("veth"))?.name;
      expect(hostVeth).toBeDefined();
      expect(hostVeth).not.toBe("veth01020304");
      const host = await k.links(HOST);
      expect(host.find((l) => l.name === "veth01020304")?.kind).toBe("veth");
      expect(host.find((l) => l.name === hostVeth)?.kind).toBe("veth");
      expect((await k.link(NS, "eth0"))?.kind).toBe("veth");
    });
  }
});
