/**
 * Test helpers of the sbr and vrf plugins on the fake kernel: a container namespace whose
 * `eth0` (peer `v0` in HOST, both up) holds the addresses and routes a main plugin
 * would have left, and a runner of a plugin definition through the real skel.
 */
import { HOST, type KernelOp } from "@tscni/kernel";
import { FakeKernel } from "@tscni/kernel/fake";
import { pluginMain, type PluginDefinition, type PluginIO } from "@tscni/skel";

/** The container namespace of these tests. */
export const NS = "/var/run/netns/tscni-sbr-test";

/** One address of the container's interface and its gateway, as a prevResult lists it. */
export interface TestIp {
  address: string;
  gateway?: string;
}

/** The default addresses: one IPv4, one IPv6, both with gateways. */
export const DUAL: readonly TestIp[] = [
  { address: "198.18.0.5/24", gateway: "198.18.0.1" },
  { address: "2001:db8::5/64", gateway: "2001:db8::1" },
];

/** A fake machine with NS, `eth0` carrying `ips`, a default route per family with a gateway and a route to 198.18.8.0/24. */
export function containerWith(ips: readonly TestIp[] = DUAL, extra: readonly KernelOp[] = []): FakeKernel {
  const k = new FakeKernel();
  k.addNetns(NS);
  const ops: KernelOp[] = [
    { op: "veth.add", ns: NS, name: "eth0", peer: { name: "v0", ns: HOST } },
    { op: "link.set", ns: NS, name: "eth0", up: true },
    { op: "link.set", ns: HOST, name: "v0", up: true },
    ...ips.map(
      (ip): KernelOp => ({
        op: "addr.add",
        ns: NS,
        dev: "eth0",
        cidr: ip.address,
        ...(ip.address.includes(":") && { nodad: true }),
      }),
    ),
  ];
  const gw4 = ips.find((ip) => !ip.address.includes(":") && ip.gateway !== undefined)?.gateway;
  const gw6 = ips.find((ip) => ip.address.includes(":") && ip.gateway !== undefined)?.gateway;
  if (gw4 !== undefined)
    ops.push(
      { op: "route.add", ns: NS, dst: "0.0.0.0/0", gw: gw4, dev: "eth0" },
      { op: "route.add", ns: NS, dst: "198.18.8.0/24", gw: gw4, dev: "eth0" },
    );
  if (gw6 !== undefined) ops.push({ op: "route.add", ns: NS, dst: "::/0", gw: gw6, dev: "eth0" });
  k.applySync([...ops, ...extra]);
  return k;
}

/** A prevResult listing `ips` on `eth0` in NS. */
export function prevResult(ips: readonly TestIp[] = DUAL): Record<string, unknown> {
  return {
    cniVersion: "1.0.0",
    interfaces: [{ name: "eth0", sandbox: NS }],
    ips: ips.map((ip) => ({ ...ip, interface: 0 })),
  };
}

/** Runs a plugin once through the skel; returns its exit code, stdout and warnings. */
export async function runPlugin(
  def: PluginDefinition,
  command: string,
  config: Record<string, unknown>,
  env: Record<string, string> = {},
) {
  let stdout = "";
  const io: PluginIO = {
    env: {
      CNI_COMMAND: command,
      CNI_CONTAINERID: "ctr1",
      CNI_NETNS: NS,
      CNI_IFNAME: "eth0",
      CNI_PATH: "/opt/cni/bin",
      ...env,
    },
    readStdin: async () => new TextEncoder().encode(JSON.stringify(config)),
    stdout: (s) => void (stdout += s),
    stderr: () => {},
  };
  const code = await pluginMain(def, io, { sameNetns: () => false });
  return { code, stdout, json: () => JSON.parse(stdout) as Record<string, unknown> };
}
