/**
 * What a bridge ADD does, as data (SPEC.md §8.1): the config, the kernel as read before
 * the ADD, and the IPAM result in; the steps to apply and the result to print out. Pure:
 * `cni plan` prints these steps, the plugin applies them, the fake kernel interprets them.
 */
import { HOST, type AddrInfo, type LinkInfo } from "@tscni/kernel";
import type { Result100 } from "@tscni/spec";
import { addressSteps, ipsFor, familyGateways, routeSteps, type IfaceTarget } from "../shared/configure-iface.ts";
import { forwardingOps, hasIpv6, ifKey, sysctlSet, type HostSysctls } from "../shared/sysctl.ts";
import { keep, type PlanStep } from "../shared/steps.ts";
import { containerNameTaken, vethSteps } from "../shared/veth.ts";
import type { BridgeConfig } from "./config.ts";
import { normalizeMac } from "./config.ts";
import { calcGateways, ensureAddrSteps, type GatewayDev } from "./gateways.ts";

/** The kernel as the ADD found it. */
export interface BridgeView {
  /**
   * Links of the host namespace: at least the bridge and the VLAN gateway device when
   * they exist (the plan looks links up by name). Host veth names are random and avoid
   * these; one that clashes with another link fails as "exists" and is picked anew
   * (applyAttachment), as the reference's random names are.
   */
  hostLinks: LinkInfo[];
  /** Addresses of the device the gateway goes on (the bridge, or `<bridge>.<vlan>`), if it exists. */
  gatewayAddrs: AddrInfo[];
  /** Links of the container namespace: at least the one named like the new interface, when it exists. */
  containerLinks: LinkInfo[];
  sysctls: HostSysctls;
  /** The container loopback's `disable_ipv6`. */
  loDisableIpv6?: string | undefined;
}

/** Everything a bridge ADD plan depends on. */
export interface BridgeAddInput {
  conf: BridgeConfig;
  netns: string;
  ifName: string;
  /** The IPAM result in 1.x form; undefined for an L2 network. */
  ipam: Result100 | undefined;
  view: BridgeView;
  /** The host end's name (random, free in the view). */
  hostVeth: string;
  /** The host end of the `<bridge>.<vlan>` gateway veth, should it be created. */
  gatewayPeer: string;
  /** The MAC a new bridge is pinned to, so it does not follow its ports' MACs. */
  bridgeMac: string;
}

/** The plan: steps, and the result without the MACs only the kernel knows yet. */
export interface BridgeAddPlan {
  steps: PlanStep[];
  result: Result100;
  /** The `<bridge>.<vlan>` gateway interface, when the result lists it. */
  vlanGateway?: string;
}

/** The name of the VLAN gateway interface. */
export function vlanGatewayName(conf: BridgeConfig): string {
  return `${conf.bridge}.${conf.vlan}`;
}

/** Create or reuse the bridge (`ensureBridge`); an existing non-bridge link of that name fails. */
function bridgeSteps(input: BridgeAddInput, existing: LinkInfo | undefined): PlanStep[] {
  const { conf } = input;
  if (existing !== undefined && existing.kind !== "bridge") {
    throw new Error(`failed to create bridge "${conf.bridge}": "${conf.bridge}" already exists but is not a bridge`);
  }
  const steps: PlanStep[] = [];
  if (existing === undefined) {
    const vlanFiltering = conf.vlan !== 0 || conf.vlanTrunkSet;
    steps.push(
      keep({
        op: "bridge.add",
        ns: HOST,
        name: conf.bridge,
        ...(conf.mtu > 0 ? { mtu: conf.mtu } : {}),
        ...(vlanFiltering ? { vlanFiltering } : {}),
      }),
    );
    steps.push(keep({ op: "link.set", ns: HOST, name: conf.bridge, mac: input.bridgeMac }));
    // We own the routes of the bridge.
    if (hasIpv6(input.view.sysctls)) steps.push(keep(sysctlSet(HOST, ifKey("ipv6", conf.bridge, "accept_ra"), "0")));
  }
  if (conf.promiscMode && existing?.promisc !== true)
    steps.push(keep({ op: "link.set", ns: HOST, name: conf.bridge, promisc: true }));
  if (existing?.up !== true) steps.push(keep({ op: "link.set", ns: HOST, name: conf.bridge, up: true }));
  return steps;
}

/** Attach a host veth end to the bridge with hairpin, isolation and VLAN settings (`setupVeth`). */
function portSteps(conf: BridgeConfig, port: string, hairpin: boolean, isolated: boolean): PlanStep[] {
  const steps: PlanStep[] = [keep({ op: "link.set", ns: HOST, name: port, master: conf.bridge })];
  if (hairpin || isolated) {
    steps.push(
      keep({
        op: "bridge-port.set",
        ns: HOST,
        name: port,
        ...(hairpin ? { hairpin } : {}),
        ...(isolated ? { isolated } : {}),
      }),
    );
  }
  const trunk = conf.vlans ?? [];
  if ((conf.vlan !== 0 || trunk.length > 0) && !conf.preserveDefaultVlan) {
    // A new port carries only the bridge's default PVID (1): remove it.
    steps.push(keep({ op: "bridge-vlan.del", ns: HOST, dev: port, vid: 1 }));
  }
  // With a trunk and no `vlan`, the native VLAN is 1.
  const native = conf.vlan !== 0 ? conf.vlan : trunk.length > 0 ? 1 : 0;
  for (const vid of trunk) {
    if (vid !== native) steps.push(keep({ op: "bridge-vlan.add", ns: HOST, dev: port, vid }));
  }
  if (native !== 0)
    steps.push(keep({ op: "bridge-vlan.add", ns: HOST, dev: port, vid: native, pvid: true, untagged: true }));
  return steps;
}

/** The container interface's sysctls before its addresses (DAD and gratuitous ARP, §8.1 step 7). */
function containerSysctls(input: BridgeAddInput): PlanStep[] {
  const { netns, ifName, conf } = input;
  const steps: PlanStep[] = [];
  if (hasIpv6(input.view.sysctls)) {
    if (conf.enabledad) {
      steps.push(keep(sysctlSet(netns, ifKey("ipv6", ifName, "enhanced_dad"), "1")));
      steps.push(keep(sysctlSet(netns, ifKey("ipv6", ifName, "accept_dad"), "1")));
    } else {
      steps.push(keep(sysctlSet(netns, ifKey("ipv6", ifName, "accept_dad"), "0")));
    }
  }
  steps.push(keep(sysctlSet(netns, ifKey("ipv4", ifName, "arp_notify"), "1")));
  return steps;
}

/** Plans a bridge ADD. Throws the reference's errors for conflicts it can see in the view. */
export function planBridgeAdd(input: BridgeAddInput): BridgeAddPlan {
  const { conf, netns, ifName, view } = input;
  const existing = view.hostLinks.find((l) => l.name === conf.bridge);
  if (view.containerLinks.some((l) => l.name === ifName)) throw containerNameTaken(ifName, input.hostVeth);
  const ipv6 = hasIpv6(view.sysctls);
  const mac = conf.mac === undefined ? undefined : normalizeMac(conf.mac);
  const steps: PlanStep[] = [
    ...bridgeSteps(input, existing),
    ...vethSteps({ netns, ifName, hostName: input.hostVeth, mtu: conf.mtu, mac, ipv6 }),
    ...portSteps(conf, input.hostVeth, conf.hairpinMode, conf.portIsolation),
  ];
  const result: Result100 = {
    cniVersion: "1.1.0",
    interfaces: [
      { name: conf.bridge, ...(existing !== undefined ? { mac: existing.mac } : { mac: input.bridgeMac }) },
      { name: input.hostVeth },
      { name: ifName, ...(mac !== undefined ? { mac } : {}), sandbox: netns },
    ],
  };
  let vlanGateway: string | undefined;
  if (input.ipam !== undefined) {
    if ((input.ipam.ips ?? []).length === 0) throw new Error("IPAM plugin returned missing IP config");
    const calc = calcGateways(input.ipam.ips ?? [], input.ipam.routes ?? [], conf);
    result.ips = calc.ips;
    if (calc.routes.length > 0) result.routes = calc.routes;
    if (input.ipam.dns !== undefined) result.dns = input.ipam.dns;
    const target: IfaceTarget = { netns, ifName, ipv6, loDisableIpv6: view.loDisableIpv6 };
    const ips = ipsFor(result, ifName);
    steps.push(
      ...containerSysctls(input),
      ...addressSteps(target, ips),
      ...routeSteps(target, result.routes ?? [], familyGateways(ips)),
    );
    const families = new Set<4 | 6>();
    let dev: GatewayDev | undefined;
    for (const family of [4, 6] as const) {
      for (const gw of calc.gateways[family]) {
        if (dev === undefined) {
          dev =
            conf.vlan !== 0
              ? {
                  ns: HOST,
                  name: vlanGatewayName(conf),
                  addrs: view.gatewayAddrs,
                  context: "failed to set vlan interface for bridge with addr",
                }
              : { ns: HOST, name: conf.bridge, addrs: view.gatewayAddrs, context: "failed to set bridge addr" };
          if (conf.vlan !== 0) {
            vlanGateway = dev.name;
            steps.push(
              ...vlanGatewaySteps(
                input,
                view.hostLinks.some((l) => l.name === dev?.name),
              ),
            );
          }
        }
        const added = ensureAddrSteps(dev, gw, conf.forceAddress);
        steps.push(...added);
        // Pin the bridge's MAC so it does not follow its ports' (`ensureAddr`).
        if (added.length > 0 && conf.vlan === 0 && existing !== undefined)
          steps.push(keep({ op: "link.set", ns: HOST, name: conf.bridge, mac: existing.mac }));
        families.add(family);
      }
    }
    steps.push(...forwardingOps(view.sysctls, families).map(keep));
    if (vlanGateway !== undefined) result.interfaces?.push({ name: vlanGateway });
  } else if (!conf.disableContainerInterface) {
    // L2: the container end still has to come up (§8.1 step 10).
    steps.push(keep({ op: "link.set", ns: netns, name: ifName, up: true }));
  }
  // Any DNS field set in the config replaces IPAM's DNS (§8.1 `dns`), as in ptp.
  // v1.1.1 (Debian) differs: its bridge answers with the config's DNS only, never IPAM's; SPEC §8.1 follows upstream main
  if (conf.dns !== undefined) result.dns = conf.dns;
  return { steps, result, ...(vlanGateway !== undefined ? { vlanGateway } : {}) };
}

/**
 * The `<bridge>.<vlan>` gateway (`ensureVlanInterface`): a veth in the host namespace
 * whose peer is an access port of the VLAN. Shared by every container on the VLAN, so it
 * stays after a failed ADD, like the bridge.
 */
function vlanGatewaySteps(input: BridgeAddInput, exists: boolean): PlanStep[] {
  if (exists) return [];
  const { conf } = input;
  const name = vlanGatewayName(conf);
  const mtu = conf.mtu > 0 ? { mtu: conf.mtu } : {};
  const steps: PlanStep[] = [
    keep({ op: "veth.add", ns: HOST, name, ...mtu, peer: { name: input.gatewayPeer, ns: HOST, ...mtu } }),
    keep({ op: "link.set", ns: HOST, name: input.gatewayPeer, up: true }),
  ];
  if (hasIpv6(input.view.sysctls))
    steps.push(keep(sysctlSet(HOST, ifKey("ipv6", input.gatewayPeer, "accept_ra"), "0")));
  steps.push(...portSteps({ ...conf, vlans: undefined }, input.gatewayPeer, false, false));
  steps.push(keep({ op: "link.set", ns: HOST, name, up: true }));
  return steps;
}
