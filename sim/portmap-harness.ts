/**
 * Running portmap in process through the plugin framework (env + stdin in, JSON out) on
 * the fake kernel and the fake firewall, with a recording conntrack. Shared by the
 * portmap simulation tests.
 */
import { FakeFirewall, type FakeFirewallOptions } from "@tscni/firewall/fake";
import { HOST } from "@tscni/kernel";
import { FakeKernel } from "@tscni/kernel/fake";
import { pluginMain, type PluginIO } from "@tscni/skel";
import { convertResult } from "@tscni/spec";
import { portmapDefinition } from "@tscni/plugins/portmap";

/** The host side of a bridge network: `cni0` with 198.18.0.1/24 and 2001:db8::1/64, up. */
export function hostKernel(): FakeKernel {
  const k = new FakeKernel();
  k.applySync([
    { op: "bridge.add", ns: HOST, name: "cni0" },
    { op: "addr.add", ns: HOST, dev: "cni0", cidr: "198.18.0.1/24" },
    { op: "addr.add", ns: HOST, dev: "cni0", cidr: "2001:db8::1/64" },
    { op: "link.set", ns: HOST, name: "cni0", up: true },
  ]);
  return k;
}

/** A previous result as bridge would give it: host veth, container eth0, both families. */
export const PREV = {
  cniVersion: "1.0.0",
  interfaces: [
    { name: "cni0" },
    { name: "veth1234", mac: "02:00:00:00:00:01" },
    { name: "eth0", mac: "02:00:00:00:00:02", sandbox: "/var/run/netns/c1" },
  ],
  ips: [
    { address: "198.18.0.5/24", gateway: "198.18.0.1", interface: 2 },
    { address: "2001:db8::5/64", gateway: "2001:db8::1", interface: 2 },
  ],
};

/** A portmap config at `cniVersion` with `mappings` as its runtimeConfig and {@link PREV} in that version's form. */
export function portmapConf(
  mappings: object[],
  extra: Record<string, unknown> = {},
  cniVersion = "1.0.0",
): Record<string, unknown> {
  return {
    cniVersion,
    name: "net",
    type: "portmap",
    prevResult: convertResult(PREV, cniVersion),
    runtimeConfig: { portMappings: mappings },
    ...extra,
  };
}

/** One in-process world: fake kernel, fake firewall, conntrack calls, warnings. */
export class World {
  readonly kernel: FakeKernel;
  readonly firewall: FakeFirewall;
  readonly conntrack: [number, string, number][] = [];
  readonly warnings: string[] = [];
  conntrackFails = false;

  constructor(fw: FakeFirewallOptions = {}, kernel = hostKernel()) {
    this.kernel = kernel;
    this.firewall = new FakeFirewall(fw);
  }

  /** Runs one command; returns the exit code and stdout (parsed when JSON). */
  async run(
    command: string,
    config: Record<string, unknown>,
    containerID = "c1",
  ): Promise<{ code: number; stdout: string; json: () => Record<string, unknown> }> {
    let stdout = "";
    const io: PluginIO = {
      env: {
        CNI_COMMAND: command,
        CNI_CONTAINERID: containerID,
        CNI_NETNS: "/var/run/netns/c1",
        CNI_IFNAME: "eth0",
        CNI_PATH: "/opt/cni/bin",
      },
      readStdin: async () => new TextEncoder().encode(JSON.stringify(config)),
      stdout: (s) => void (stdout += s),
      stderr: () => {},
    };
    const def = portmapDefinition({
      kernel: this.kernel,
      firewall: this.firewall,
      conntrack: {
        deleteByDstPort: async (family, proto, port) => {
          if (this.conntrackFails) throw new Error("netlink: permission denied");
          this.conntrack.push([family, proto, port]);
        },
      },
      warn: (m) => this.warnings.push(m),
    });
    const code = await pluginMain(def, io, { sameNetns: () => false });
    return { code, stdout, json: () => JSON.parse(stdout) as Record<string, unknown> };
  }
}
