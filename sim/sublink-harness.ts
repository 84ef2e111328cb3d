/**
 * Running the interface plugins (macvlan, ipvlan, vlan, dummy) in process on the fake
 * kernel, through the plugin framework as a runtime would, with host-local IPAM over
 * memory stores. The host namespace holds a veth pair `vp0`/`vp1`, both up, with a
 * default route through `vp0`: `vp0` plays the host NIC (the master).
 */
import { FakeFirewall } from "@tscni/firewall/fake";
import type { MemoryStore } from "@tscni/ipam";
import { dummyDefinition } from "@tscni/plugins/dummy";
import { ipvlanDefinition } from "@tscni/plugins/ipvlan";
import { macvlanDefinition } from "@tscni/plugins/macvlan";
import type { PluginPorts } from "@tscni/plugins/shared";
import { vlanDefinition } from "@tscni/plugins/vlan";
import { pluginMain, type PluginDefinition } from "@tscni/skel";
import { HOST } from "@tscni/kernel";
import { memoryIpam, seededBytes, type Invocation, type PluginRun } from "./plugin-harness.ts";
import { FakeKernel, type NamespaceSnapshot } from "@tscni/kernel/fake";

/** The interface plugins this harness runs. */
export type SublinkPlugin = "macvlan" | "ipvlan" | "vlan" | "dummy";

const DEFINITIONS: Readonly<Record<SublinkPlugin, (p: PluginPorts) => PluginDefinition>> = {
  macvlan: macvlanDefinition,
  ipvlan: ipvlanDefinition,
  vlan: vlanDefinition,
  dummy: dummyDefinition,
};

/** The container namespaces of the harness. */
export const CONTAINERS = ["/var/run/netns/c0", "/var/run/netns/c1"] as const;

/** A fake machine with a host NIC (`vp0`) and two container namespaces. */
export class SublinkHarness {
  readonly kernel: FakeKernel;
  readonly stores = new Map<string, MemoryStore>();
  readonly warnings: string[] = [];
  readonly ports: PluginPorts;

  constructor(seed = 1) {
    this.kernel = new FakeKernel({ seed });
    for (const c of CONTAINERS) this.kernel.addNetns(c);
    this.kernel.applySync([
      { op: "veth.add", ns: HOST, name: "vp0", peer: { name: "vp1", ns: HOST } },
      { op: "link.set", ns: HOST, name: "vp0", up: true },
      { op: "link.set", ns: HOST, name: "vp1", up: true },
      { op: "addr.add", ns: HOST, dev: "vp0", cidr: "198.18.200.1/24" },
      { op: "route.add", ns: HOST, dst: "0.0.0.0/0", gw: "198.18.200.254", dev: "vp0" },
    ]);
    this.ports = {
      kernel: this.kernel,
      firewall: new FakeFirewall(),
      ipam: memoryIpam(this.stores),
      random: seededBytes(seed),
      sleep: async () => {},
      warn: (msg) => void this.warnings.push(msg),
    };
  }

  /** Every namespace's snapshot, HOST first. */
  snapshots(): NamespaceSnapshot[] {
    return this.kernel.namespaces().map((ns) => this.kernel.snapshot(ns));
  }

  /** The addresses host-local holds for a network, sorted. */
  reserved(network: string): string[] {
    return [...(this.stores.get(network)?.reservations.keys() ?? [])].sort();
  }

  /** Runs `plugin` with `command` through the plugin framework. */
  async run(plugin: SublinkPlugin, command: string, inv: Invocation): Promise<PluginRun> {
    let stdout = "";
    let stderr = "";
    const env: Record<string, string> = {
      CNI_COMMAND: command,
      CNI_CONTAINERID: inv.containerID ?? "c",
      CNI_NETNS: inv.netns ?? CONTAINERS[0],
      CNI_IFNAME: inv.ifName ?? "eth0",
      CNI_ARGS: inv.cniArgs ?? "",
      CNI_PATH: "/opt/cni/bin",
    };
    const io = {
      env,
      readStdin: async () => new TextEncoder().encode(JSON.stringify(inv.config)),
      stdout: (s: string) => void (stdout += s),
      stderr: (s: string) => void (stderr += s),
    };
    const code = await pluginMain(DEFINITIONS[plugin](this.ports), io, { sameNetns: () => false });
    let json: Record<string, unknown> | undefined;
    try {
      json = stdout.trim() === "" ? undefined : (JSON.parse(stdout) as Record<string, unknown>);
    } catch {
      json = undefined;
    }
    return { code, stdout, stderr, json };
  }
}
