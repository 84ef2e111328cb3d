/**
 * Running the bridge and ptp plugins in process on the fake kernel, through the plugin
 * framework as a runtime would (env + stdin in, JSON on stdout), with host-local IPAM
 * over memory stores and the fake firewall. Shared by the plugin simulation tests.
 */
import { FakeFirewall } from "@tscni/firewall/fake";
import { MemoryStore } from "@tscni/ipam";
import { bridgeDefinition } from "@tscni/plugins/bridge";
import { hostLocalHandlers } from "@tscni/plugins/host-local";
import { ptpDefinition } from "@tscni/plugins/ptp";
import { toCurrent, type Ipam, type IpamFactory, type PluginPorts, type RandomBytes } from "@tscni/plugins/shared";
import { pluginMain, type CmdArgs } from "@tscni/skel";
import { CniError, ErrorCode, convertResult, parseResult, type Result100 } from "@tscni/spec";
import { FakeKernel } from "@tscni/kernel/fake";

/** A deterministic random source (mulberry32), so failing runs replay. */
export function seededBytes(seed: number): RandomBytes {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) & 0xff;
  };
  return (n) => Uint8Array.from({ length: n }, next);
}

/** host-local in process over one MemoryStore per network; any other type is "not found". */
export function memoryIpam(stores: Map<string, MemoryStore>): IpamFactory {
  const hl = hostLocalHandlers((_dir, net) => {
    let store = stores.get(net);
    if (store === undefined) stores.set(net, (store = new MemoryStore()));
    return store;
  });
  return (type, args): Ipam => {
    const call = (command: string): CmdArgs => ({ ...args, command });
    if (type !== "host-local") {
      const fail = async (): Promise<never> => {
        throw new CniError(
          ErrorCode.Internal,
          type === "" ? "no plugin name provided" : `failed to find plugin "${type}" in path [/opt/cni/bin]`,
        );
      };
      return { add: fail, check: fail, del: fail, status: fail, gc: fail };
    }
    return {
      add: async () => toCurrent(await hl.add(call("ADD"))),
      check: async () => hl.check?.(call("CHECK")),
      del: async () => hl.del?.(call("DEL")),
      status: async () => hl.status?.(call("STATUS")),
      gc: async () => hl.gc?.(call("GC")),
    };
  };
}

/** One plugin invocation's outcome. */
export interface PluginRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed, when it is JSON. */
  json: Record<string, unknown> | undefined;
}

/** What one invocation names. */
export interface Invocation {
  config: Record<string, unknown>;
  containerID?: string;
  netns?: string;
  ifName?: string;
  cniArgs?: string;
}

/** A fake machine with the two plugins installed. */
export class PluginHarness {
  readonly kernel: FakeKernel;
  readonly firewall: FakeFirewall;
  readonly stores = new Map<string, MemoryStore>();
  readonly warnings: string[] = [];
  readonly ports: PluginPorts;

  constructor(opts: { seed?: number; kernel?: FakeKernel; firewall?: FakeFirewall } = {}) {
    this.kernel = opts.kernel ?? new FakeKernel({ seed: opts.seed ?? 1 });
    this.firewall = opts.firewall ?? new FakeFirewall();
    this.ports = {
      kernel: this.kernel,
      firewall: this.firewall,
      ipam: memoryIpam(this.stores),
      random: seededBytes(opts.seed ?? 1),
      sleep: async () => {},
      warn: (msg) => void this.warnings.push(msg),
    };
  }

  /** The addresses host-local holds for a network, sorted. */
  reserved(network: string): string[] {
    return [...(this.stores.get(network)?.reservations.keys() ?? [])].sort();
  }

  /** Runs `plugin` with `command` through the plugin framework, as a runtime would. */
  async run(plugin: "bridge" | "ptp", command: string, inv: Invocation): Promise<PluginRun> {
    const def = plugin === "bridge" ? bridgeDefinition(this.ports) : ptpDefinition(this.ports);
    let stdout = "";
    let stderr = "";
    const env: Record<string, string> = {
      CNI_COMMAND: command,
      CNI_CONTAINERID: inv.containerID ?? "c",
      CNI_NETNS: inv.netns ?? "",
      CNI_IFNAME: inv.ifName ?? "eth0",
      CNI_ARGS: inv.cniArgs ?? "",
      CNI_PATH: "/opt/cni/bin",
    };
    const code = await pluginMain(
      def,
      {
        env,
        readStdin: async () => new TextEncoder().encode(JSON.stringify(inv.config)),
        stdout: (s) => void (stdout += s),
        stderr: (s) => void (stderr += s),
      },
      { sameNetns: () => false },
    );
    let json: Record<string, unknown> | undefined;
    try {
      json = stdout.trim() === "" ? undefined : (JSON.parse(stdout) as Record<string, unknown>);
    } catch {
      json = undefined;
    }
    return { code, stdout, stderr, json };
  }
}

/** The addresses (CIDR) of a printed result of any version. */
export function resultAddresses(result: Record<string, unknown> | undefined): string[] {
  if (result === undefined) return [];
  const legacy = ["ip4", "ip6"]
    .map((k) => (result[k] as { ip?: string } | undefined)?.ip)
    .filter((x): x is string => x !== undefined);
  const ips = ((result.ips as { address: string }[] | undefined) ?? []).map((ip) => ip.address);
  return [...legacy, ...ips];
}

/** The host interface name of a printed result (0.3.0 and later), by its position. */
export function resultInterface(
  result: Record<string, unknown> | undefined,
  index: number,
): { name: string; mac?: string; sandbox?: string } | undefined {
  return (result?.interfaces as { name: string; mac?: string; sandbox?: string }[] | undefined)?.[index];
}

/** A printed result of any version read as 1.1.0, so one assertion serves every version (§3.7). */
export function asCurrent(result: Record<string, unknown> | undefined): Result100 {
  return convertResult(parseResult(result), "1.1.0") as Result100;
}
