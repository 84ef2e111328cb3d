import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOST, renderBatch, type Kernel, type LinkInfo } from "@tscni/kernel";
import { FakeFirewall } from "@tscni/firewall/fake";
import { counting, planSetup } from "../testing/plan-network.ts";
import { planNetwork } from "./_plan-network.ts";

const dir = mkdtempSync(join(tmpdir(), "tscni-plan-net-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lo: LinkInfo = {
  index: 1,
  name: "lo",
  kind: "loopback",
  mac: "00:00:00:00:00:00",
  mtu: 65536,
  up: true,
  operState: "UNKNOWN",
  promisc: false,
};

/** A kernel that only answers reads (a fresh host and namespace) and refuses every write. */
function readOnlyKernel(extraHostLinks: LinkInfo[] = []): Kernel {
  return {
    apply: async () => {
      throw new Error("plan must not change the kernel");
    },
    netnsExists: async () => true,
    links: async (ns) => (ns === HOST ? [lo, ...extraHostLinks] : [{ ...lo, up: false }]),
    link: async (ns, name) =>
      (ns === HOST ? [lo, ...extraHostLinks] : [{ ...lo, up: false }]).find((l) => l.name === name),
    addresses: async () => [],
    routes: async () => [],
    rules: async () => [],
    sysctl: async (_ns, key) => (key.endsWith("disable_ipv6") ? "0" : key.includes("forward") ? "0" : undefined),
    qdiscs: async () => [],
  };
}

const setup = (name: string, plugins: unknown[]) => planSetup(dir, name, plugins);

describe("planNetwork", () => {
  test("plans a bridge ADD with the next host-local address and reserves nothing", async () => {
    const { env, data } = setup("bridge", [
      {
        type: "bridge",
        bridge: "cni0",
        isGateway: true,
        ipam: { type: "host-local", dataDir: "DATA", ranges: [[{ subnet: "198.18.0.0/24" }]] },
      },
      { type: "portmap", capabilities: { portMappings: true } },
    ]);
    const before = readdirSync(join(data, "web")).sort();
    const plan = await planNetwork("web", "/var/run/netns/plan1", {
      env,
      kernel: readOnlyKernel(),
      random: counting(),
    });
    const script = renderBatch(plan.ops);
    expect(script).toContain("link add cni0 type bridge");
    expect(script).toContain("addr add 198.18.0.3/24 dev eth0");
    expect(script).toContain("addr add 198.18.0.1/24 dev cni0");
    expect(plan.notes[0]).toMatch(
      /^bridge: ADD of eth0 in \/var\/run\/netns\/plan1 \(container ID cnitool-[0-9a-f]{20}\)$/,
    );
    expect(plan.notes).toContain("portmap: not planned (no planner for this plugin)");
    expect(readdirSync(join(data, "web")).sort()).toEqual(before);
  });

  test("plans a ptp ADD with its host routes on the interface named by ifName", async () => {
    const { env } = setup("ptp", [
      { type: "ptp", ipam: { type: "host-local", dataDir: "DATA", ranges: [[{ subnet: "198.18.0.0/24" }]] } },
    ]);
    const plan = await planNetwork("web", "/var/run/netns/plan2", {
      env,
      ifName: "net1",
      kernel: readOnlyKernel(),
      random: counting(),
    });
    const script = renderBatch(plan.ops);
    expect(script).toContain("route del 198.18.0.0/24 dev net1");
    expect(script).toContain("route add 198.18.0.3/32 dev veth01020304 scope host");
  });

  test.each(["bridge", "ptp"])(
    "plans %s's ipMasq as a firewall transaction after the kernel operations, on the default backend for what works",
    async (type) => {
      const { env } = setup(`masq-${type}`, [
        {
          type,
          isGateway: true,
          ipMasq: true,
          ipam: { type: "host-local", dataDir: "DATA", ranges: [[{ subnet: "198.18.0.0/24" }]] },
        },
      ]);
      const nftOnly = new FakeFirewall({ support: { iptables: false } });
      const plan = await planNetwork("web", "/var/run/netns/plan5", {
        env,
        kernel: readOnlyKernel(),
        random: counting(),
        firewall: nftOnly,
      });
      expect(plan.firewall.find((o) => o.op === "nft.rule.add" && o.chain === "masq_checks")).toMatchObject({
        rule: "ip saddr 198.18.0.3 ip daddr != 198.18.0.0/24 masquerade",
      });
      expect(nftOnly.transactions).toEqual([]);
      const ipt = await planNetwork("web", "/var/run/netns/plan5", {
        env,
        kernel: readOnlyKernel(),
        random: counting(),
        firewall: new FakeFirewall(),
      });
      expect(ipt.firewall.map((o) => o.op)).toEqual([
        "ipt.chain.ensure",
        "ipt.rule.append",
        "ipt.rule.append",
        "ipt.rule.append",
      ]);
    },
  );

  test("plans no firewall change without ipMasq", async () => {
    const { env } = setup("nomasq", [
      { type: "bridge", ipam: { type: "host-local", dataDir: "DATA", ranges: [[{ subnet: "198.18.0.0/24" }]] } },
    ]);
    expect(
      (await planNetwork("web", "/var/run/netns/plan6", { env, kernel: readOnlyKernel(), random: counting() }))
        .firewall,
    ).toEqual([]);
  });

  test("fails with the plugin's own error for a conflict it can see", async () => {
    const { env } = setup("conflict", [
      { type: "bridge", ipam: { type: "host-local", dataDir: "DATA", ranges: [[{ subnet: "198.18.0.0/24" }]] } },
    ]);
    const kernel = readOnlyKernel([{ ...lo, index: 2, name: "cni0", kind: "dummy" }]);
    await expect(planNetwork("web", "/var/run/netns/plan3", { env, kernel, random: counting() })).rejects.toThrow(
      '"cni0" already exists but is not a bridge',
    );
  });

  test("plans a bridge ADD with static IPAM's configured address", async () => {
    const { env } = setup("static", [
      {
        type: "bridge",
        bridge: "cni0",
        isGateway: true,
        ipam: { type: "static", addresses: [{ address: "198.18.0.77/24", gateway: "198.18.0.1" }] },
      },
    ]);
    const plan = await planNetwork("web", "/var/run/netns/plan5", {
      env,
      kernel: readOnlyKernel(),
      random: counting(),
    });
    expect(renderBatch(plan.ops)).toContain("addr add 198.18.0.77/24 dev eth0");
  });

  test("refuses an IPAM it cannot peek without reserving", async () => {
    const { env } = setup("dhcp", [{ type: "bridge", ipam: { type: "dhcp" } }]);
    await expect(
      planNetwork("web", "/var/run/netns/plan4", { env, kernel: readOnlyKernel(), random: counting() }),
    ).rejects.toThrow('cannot plan IPAM "dhcp"');
  });
});

describe("cni plan <network> <netns>", () => {
  test("takes exactly a network and a namespace", async () => {
    const { verb } = await import("./plan.ts");
    let err = "";
    const io = {
      argv: ["web", "/var/run/netns/x", "extra"],
      env: {},
      readStdin: async () => new Uint8Array(),
      stdout: () => {},
      stderr: (t: string) => void (err += t),
    };
    expect(await verb.run(io)).toBe(2);
    expect(err).toContain('unexpected argument "extra"');
  });

  test("reports a network that is not in NETCONFPATH", async () => {
    const { verb } = await import("./plan.ts");
    let err = "";
    const io = {
      argv: ["absent", "/var/run/netns/x"],
      env: { NETCONFPATH: dir },
      readStdin: async () => new Uint8Array(),
      stdout: () => {},
      stderr: (t: string) => void (err += t),
    };
    expect(await verb.run(io)).toBe(1);
    expect(err).toContain("cni plan: ");
  });
  test("plans a chained firewall plugin on the bridge's planned result: CNI-FORWARD rules for the peeked address", async () => {
    const { env } = setup("fwchain", [
      {
        type: "bridge",
        bridge: "cni0",
        isGateway: true,
        ipam: { type: "host-local", dataDir: "DATA", ranges: [[{ subnet: "198.18.0.0/24" }]] },
      },
      { type: "firewall", backend: "iptables", ingressPolicy: "same-bridge" },
    ]);
    const plan = await planNetwork("web", "/var/run/netns/plan1", {
      env,
      kernel: readOnlyKernel(),
      random: counting(),
      firewall: new FakeFirewall(),
    });
    const rules = plan.firewall.flatMap((op) =>
      "rule" in op && typeof op.rule !== "string" ? [`${op.chain} ${op.rule.join(" ")}`] : [],
    );
    expect(rules).toContain("CNI-FORWARD -s 198.18.0.3/32 -j ACCEPT");
    expect(rules).toContain(
      "CNI-ISOLATION-STAGE-2 -o cni0 -m comment --comment CNI firewall plugin rules (ingressPolicy: same-bridge|isolated) -j DROP",
    );
    expect(plan.notes.some((n) => n.startsWith("firewall"))).toBe(false);
  });
});

describe("planNetwork with a chained bandwidth plugin", () => {
  test("plans the tbf, ifb and redirect on the bridge's planned host veth, printed as tc lines", async () => {
    const { env } = setup("bwchain", [
      {
        type: "bridge",
        bridge: "cni0",
        mtu: 1400,
        ipam: { type: "host-local", dataDir: "DATA", ranges: [[{ subnet: "198.18.0.0/24" }]] },
      },
      { type: "bandwidth", ingressRate: 8000000, ingressBurst: 80000, egressRate: 16000000, egressBurst: 160000 },
    ]);
    const plan = await planNetwork("web", "/var/run/netns/plan7", {
      env,
      kernel: readOnlyKernel(),
      random: counting(),
    });
    const veth = plan.ops.find((o) => o.op === "veth.add");
    const hostVeth = veth?.op === "veth.add" ? (veth.ns === HOST ? veth.name : veth.peer.name) : "?";
    const tail = plan.ops.slice(-5).map((o) => o.op);
    expect(tail).toEqual(["qdisc.add", "ifb.add", "qdisc.add", "filter.add", "qdisc.add"]);
    const script = renderBatch(plan.ops);
    expect(script).toContain(`qdisc add dev ${hostVeth} root handle 1: tbf rate 8000000bit burst 10000 limit 35000`);
    expect(script).toMatch(/link add bwp[0-9a-f]{12} mtu 1400 txqueuelen 0 up type ifb/);
    expect(script).toContain("tc -batch -");
    expect(plan.notes.some((n) => n.startsWith("bandwidth"))).toBe(false);
  });
});

describe("planNetwork for tap, sbr and tuning", () => {
  test("plans a tap ADD: the tap with its owner and MAC, then the peeked address on it", async () => {
    const { env } = setup("tap", [
      {
        type: "tap",
        mac: "02:00:00:00:00:07",
        owner: 1000,
        ipam: { type: "host-local", dataDir: "DATA", ranges: [[{ subnet: "198.18.0.0/24" }]] },
      },
    ]);
    const plan = await planNetwork("web", "/var/run/netns/plan8", {
      env,
      kernel: readOnlyKernel(),
      random: counting(),
    });
    expect(plan.ops[0]).toMatchObject({ op: "tap.add", ns: "/var/run/netns/plan8", name: "eth0", owner: 1000 });
    const script = renderBatch(plan.ops);
    expect(script).toContain("addr add 198.18.0.3/24 dev eth0");
    expect(plan.notes[0]).toStartWith("tap: ADD of eth0 in /var/run/netns/plan8");
  });

  test("plans sbr with a table as a rule per planned address selecting it, after ptp", async () => {
    const { env } = setup("sbr", [
      { type: "ptp", ipam: { type: "host-local", dataDir: "DATA", ranges: [[{ subnet: "198.18.0.0/24" }]] } },
      { type: "sbr", table: 500 },
    ]);
    const plan = await planNetwork("web", "/var/run/netns/plan9", {
      env,
      kernel: readOnlyKernel(),
      random: counting(),
    });
    expect(plan.ops.at(-1)).toMatchObject({
      op: "rule.add",
      ns: "/var/run/netns/plan9",
      from: "198.18.0.3/32",
      table: 500,
    });
    expect(plan.notes.some((n) => n.startsWith("sbr"))).toBe(false);
  });

  test("plans sbr without a table: a table from 100 per planned address, the ptp's routes moved into it", async () => {
    const { env } = setup("sbr2", [
      { type: "ptp", ipam: { type: "host-local", dataDir: "DATA", ranges: [[{ subnet: "198.18.0.0/24" }]] } },
      { type: "sbr" },
    ]);
    const plan = await planNetwork("web", "/var/run/netns/plan10", {
      env,
      kernel: readOnlyKernel(),
      random: counting(),
    });
    expect(plan.ops).toContainEqual({ op: "rule.add", ns: "/var/run/netns/plan10", from: "198.18.0.3/32", table: 100 });
    expect(renderBatch(plan.ops)).toContain("route del 198.18.0.0/24 via 198.18.0.1 dev eth0");
    expect(plan.notes.some((n) => n.startsWith("sbr"))).toBe(false);
  });

  test("plans tuning's sysctl and link changes on the bridge's planned interface, in the reference's order", async () => {
    const { env } = setup("tuning", [
      {
        type: "bridge",
        bridge: "cni0",
        ipam: { type: "host-local", dataDir: "DATA", ranges: [[{ subnet: "198.18.0.0/24" }]] },
      },
      { type: "tuning", mtu: 1280, promisc: true, sysctl: { "net.ipv4.conf.eth0.arp_filter": "1" } },
    ]);
    const plan = await planNetwork("web", "/var/run/netns/plan11", {
      env,
      kernel: readOnlyKernel(),
      random: counting(),
    });
    const ns = "/var/run/netns/plan11";
    expect(plan.ops.slice(-3)).toEqual([
      { op: "sysctl.set", ns, key: "net.ipv4.conf.eth0.arp_filter", value: "1" },
      { op: "link.set", ns, name: "eth0", promisc: true },
      { op: "link.set", ns, name: "eth0", mtu: 1280 },
    ]);
    expect(plan.notes.some((n) => n.startsWith("tuning"))).toBe(false);
  });
});
