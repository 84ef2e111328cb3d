/**
 * Small builders for tests: a fake machine with a host and N container namespaces at
 * stable paths, and hand-written batches for the two common topologies (containers on a
 * host bridge; ptp veths with /32 routes through the host). These batches are fixtures,
 * not the plugins: tests of the plugins use the plugins.
 */
import { HOST, type KernelBatch, type KernelOp, type Netns } from "../index.ts";
import { FakeKernel, type FakeKernelOptions } from "./fake-kernel.ts";

/** The stable path of container namespace `i` (`/var/run/netns/c1`, ...). */
export function containerNs(i: number): Netns {
  return `/var/run/netns/c${i}`;
}

/** A fake machine: the kernel, HOST, and the container namespaces c1..cN. */
export interface Scenario {
  kernel: FakeKernel;
  host: Netns;
  containers: Netns[];
}

/** A fake kernel with `containers` fresh namespaces (default 2). */
export function scenario(opts: FakeKernelOptions & { containers?: number } = {}): Scenario {
  const kernel = new FakeKernel(opts);
  const containers = Array.from({ length: opts.containers ?? 2 }, (_, i) => containerNs(i + 1));
  for (const ns of containers) kernel.addNetns(ns);
  return { kernel, host: HOST, containers };
}

/** A host bridge, up, with an optional gateway address (e.g. `198.18.0.1/24`). */
export function hostBridge(name: string, gatewayCidr?: string): KernelBatch {
  const ops: KernelOp[] = [
    { op: "bridge.add", ns: HOST, name },
    { op: "link.set", ns: HOST, name, up: true },
  ];
  if (gatewayCidr) ops.push({ op: "addr.add", ns: HOST, dev: name, cidr: gatewayCidr });
  return ops;
}

/** What to wire for one container. */
export interface Attachment {
  ns: Netns;
  /** The host end's name. */
  hostVeth: string;
  /** The container end's name (default `eth0`). */
  ifName?: string;
  /** The container's address with its prefix. */
  cidr: string;
  /** Default route through this gateway, when given. */
  gateway?: string;
}

/** A veth from the container to a host bridge, addressed, up, with an optional default route. */
export function attachToBridge(bridge: string, a: Attachment): KernelBatch {
  const ifName = a.ifName ?? "eth0";
  const ops: KernelOp[] = [
    { op: "veth.add", ns: a.ns, name: ifName, peer: { name: a.hostVeth, ns: HOST } },
    { op: "link.set", ns: HOST, name: a.hostVeth, master: bridge, up: true },
    { op: "link.set", ns: a.ns, name: "lo", up: true },
    { op: "link.set", ns: a.ns, name: ifName, up: true },
    { op: "addr.add", ns: a.ns, dev: ifName, cidr: a.cidr },
  ];
  if (a.gateway)
    ops.push({ op: "route.add", ns: a.ns, dst: a.gateway.includes(":") ? "::/0" : "0.0.0.0/0", gw: a.gateway });
  return ops;
}

/**
 * A ptp link as the reference ptp plugin lays it out: the container gets `cidr`, a /32
 * (or /128) route to the gateway scope link and a default route through it; the host end
 * gets the gateway address as a host address and a /32 route back to the container.
 */
export function ptpLink(a: Attachment & { gateway: string }): KernelBatch {
  const ifName = a.ifName ?? "eth0";
  const v6 = a.gateway.includes(":");
  const host = v6 ? 128 : 32;
  const ip = a.cidr.split("/")[0] ?? a.cidr;
  return [
    { op: "veth.add", ns: a.ns, name: ifName, peer: { name: a.hostVeth, ns: HOST } },
    { op: "link.set", ns: HOST, name: a.hostVeth, up: true },
    { op: "link.set", ns: a.ns, name: ifName, up: true },
    { op: "addr.add", ns: a.ns, dev: ifName, cidr: a.cidr, noprefixroute: true },
    { op: "route.add", ns: a.ns, dst: `${a.gateway}/${host}`, dev: ifName, scope: "link" },
    { op: "route.add", ns: a.ns, dst: v6 ? "::/0" : "0.0.0.0/0", gw: a.gateway, dev: ifName },
    { op: "addr.add", ns: HOST, dev: a.hostVeth, cidr: `${a.gateway}/${host}` },
    { op: "route.add", ns: HOST, dst: `${ip}/${host}`, dev: a.hostVeth, scope: "link" },
  ];
}

/** Turns on IPv4 and IPv6 forwarding in a namespace. */
export function enableForwarding(ns: Netns): KernelBatch {
  return [
    { op: "sysctl.set", ns, key: "net.ipv4.ip_forward", value: "1" },
    { op: "sysctl.set", ns, key: "net.ipv6.conf.all.forwarding", value: "1" },
  ];
}
