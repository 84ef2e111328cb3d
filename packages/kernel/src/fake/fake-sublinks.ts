/**
 * The fake kernel's sub-link kinds (ops-sublinks.ts in @tscni/kernel): macvlan and ipvlan
 * on a lower device, a vlan born in another namespace than its parent, and dummy. A
 * child records its lower device by namespace and index (`Link.lower`), because the
 * interface plugins create it on a host NIC straight into a container: when the lower
 * device goes (deleted, its namespace deleted, moved away), every child goes with it,
 * wherever it lives, as NETDEV_UNREGISTER does in macvlan, ipvlan and 8021q.
 *
 * Checked against Linux 6.18 (macvlan; the kernel here has no ipvlan, vlan or dummy, whose
 * rules follow their drivers' source): a child's MTU may not exceed its lower's (EINVAL),
 * and defaults to it; a macvlan gets a random MAC, an ipvlan its lower's; a passthru
 * macvlan is alone on its lower (EINVAL either way); loopback cannot be a lower device.
 * Simplification: an admin-down lower does not take children in other namespaces down.
 */
import { KernelError, type DummyAdd, type IpvlanAdd, type MacvlanAdd, type Netns, type VlanAdd } from "../index.ts";
import { checkFree, checkMac, checkMtu, checkName, insertLink } from "./link-create.ts";
import { nextMac, requireLink, requireNs, type Link, type NsState, type World } from "./state.ts";

/** The lower device of a new child, and the namespace the child is born in. */
function place(
  world: World,
  op: { ns: Netns; name: string; parent: string; into?: Netns | undefined; mtu?: number | undefined },
): { home: NsState; lower: Link; target: NsState; mtu: number } {
  const home = requireNs(world, op.ns);
  checkName(op.name);
  const lower = requireLink(home, op.parent);
  const target = requireNs(world, op.into ?? op.ns);
  checkFree(target, op.name);
  if (lower.kind === "loopback")
    throw new KernelError("invalid", `cannot use "${lower.name}" as a lower device: invalid argument`);
  const mtu = op.mtu === undefined || op.mtu === 0 ? lower.mtu : checkMtu(op.mtu);
  if (mtu > lower.mtu)
    throw new KernelError("invalid", `mtu ${mtu} is greater than the lower device's ${lower.mtu}: invalid argument`);
  return { home, lower, target, mtu };
}

/** Children of a lower device, wherever they live. */
export function childrenOf(world: World, ns: Netns, index: number): { ns: NsState; link: Link }[] {
  const out: { ns: NsState; link: Link }[] = [];
  for (const state of world.namespaces.values()) {
    for (const link of state.links.values())
      if (link.lower?.ns === ns && link.lower.index === index) out.push({ ns: state, link });
  }
  return out;
}

/** `macvlan.add`. */
export function addMacvlan(world: World, op: MacvlanAdd): void {
  const { home, lower, target, mtu } = place(world, op);
  const siblings = childrenOf(world, home.path, lower.index).filter((c) => c.link.kind === "macvlan");
  if (op.mode === "passthru" ? siblings.length > 0 : siblings.some((c) => c.link.macvlanMode === "passthru")) {
    throw new KernelError("invalid", `a passthru macvlan must be alone on "${lower.name}": invalid argument`);
  }
  const mac = op.mac === undefined ? nextMac(world) : checkMac(op.mac);
  insertLink(target, {
    kind: "macvlan",
    name: op.name,
    mtu,
    mac,
    up: false,
    promisc: false,
    lower: { ns: home.path, index: lower.index },
    macvlanMode: op.mode,
  });
}

/** `ipvlan.add`: the child shares its lower's MAC. */
export function addIpvlan(world: World, op: IpvlanAdd): void {
  const { home, lower, target, mtu } = place(world, op);
  if (lower.kind === "ipvlan")
    throw new KernelError("invalid", `cannot stack an ipvlan on ipvlan "${lower.name}": invalid argument`);
  insertLink(target, {
    kind: "ipvlan",
    name: op.name,
    mtu,
    mac: lower.mac,
    up: false,
    promisc: false,
    lower: { ns: home.path, index: lower.index },
    ipvlanMode: op.mode,
    ipvlanFlag: op.flag ?? "bridge",
  });
}

/** `vlan.add` with a target namespace or an MTU (the plain one is link-create.ts's addVlan). */
export function addVlanInto(world: World, op: VlanAdd): void {
  const { home, lower, target, mtu } = place(world, op);
  if (!Number.isInteger(op.id) || op.id < 0 || op.id > 4094)
    throw new KernelError("invalid", `invalid VLAN id "${op.id}"`);
  const taken =
    childrenOf(world, home.path, lower.index).some((c) => c.link.kind === "vlan" && c.link.vlanId === op.id) ||
    [...home.links.values()].some((l) => l.kind === "vlan" && l.parent === lower.index && l.vlanId === op.id);
  if (taken) throw new KernelError("exists", `VLAN "${op.id}" already exists on "${lower.name}"`);
  const base = { kind: "vlan" as const, name: op.name, mtu, mac: lower.mac, up: false, promisc: false, vlanId: op.id };
  // Born beside its parent, it is the plain kind (same-namespace parent index).
  if (target === home) insertLink(home, { ...base, parent: lower.index });
  else insertLink(target, { ...base, lower: { ns: home.path, index: lower.index } });
}

/** `dummy.add`. */
export function addDummy(world: World, op: DummyAdd): void {
  const ns = requireNs(world, op.ns);
  checkName(op.name);
  checkFree(ns, op.name);
  const mac = op.mac === undefined ? nextMac(world) : checkMac(op.mac);
  insertLink(ns, { kind: "dummy", name: op.name, mtu: checkMtu(op.mtu ?? 1500), mac, up: false, promisc: false });
}

/** The operstate of a child: its lower's carrier, DOWN (not LOWERLAYERDOWN) when the lower is in another namespace, as Linux 6.18 shows it. */
export function childOperState(
  world: World,
  link: Link,
  lowerUp: (ns: NsState, lower: Link) => boolean,
): string | undefined {
  if (link.kind === "dummy") return "UNKNOWN";
  if (link.lower === undefined) return undefined;
  const ns = world.namespaces.get(link.lower.ns);
  const lower = ns?.links.get(link.lower.index);
  if (ns !== undefined && lower !== undefined && lowerUp(ns, lower)) return "UP";
  return "DOWN";
}

/** Problems with a child's lower device, for the invariants: it must be alive. */
export function lowerProblems(world: World, ns: NsState, link: Link): string[] {
  if (link.lower === undefined)
    return link.kind === "macvlan" || link.kind === "ipvlan"
      ? [`${link.kind} "${link.name}" has no lower device in netns "${ns.path}"`]
      : [];
  const lower = world.namespaces.get(link.lower.ns)?.links.get(link.lower.index);
  return lower === undefined ? [`${link.kind} "${link.name}" outlived its lower device in netns "${ns.path}"`] : [];
}

/** The snapshot fields of a sub-link. */
export function sublinkInfo(link: Link): { macvlanMode?: string; ipvlanMode?: string; ipvlanFlag?: string } {
  if (link.kind === "macvlan" && link.macvlanMode !== undefined) return { macvlanMode: link.macvlanMode };
  if (link.kind === "ipvlan" && link.ipvlanMode !== undefined)
    return { ipvlanMode: link.ipvlanMode, ipvlanFlag: link.ipvlanFlag ?? "bridge" };
  return {};
}
