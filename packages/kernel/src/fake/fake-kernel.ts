/**
 * FakeKernel: the Kernel port over an in-memory model (CONVENTIONS.md: knftables'
 * fake.go). Batches run op by op and stop at the first failure, earlier ops staying
 * applied, as `ip -batch` does; the invariants are checked after every batch.
 *
 * Deliberate simplifications (each explained where it lives): a moved link always gets a
 * new index (link-change.ts); a route is keyed by (table, dst, metric), ECMP as one entry per nexthop (routes.ts);
 * DAD completes at once and link-local addresses appear as soon as a link is
 * operationally up (connected.ts); a bridge keeps its own MAC and MTU whatever its ports;
 * only the sysctls in sysctl-store.ts exist.
 */
import { addTap } from "./fake-tap.ts";
import {
  HOST,
  KernelError,
  type AddrInfo,
  type Kernel,
  type KernelBatch,
  type KernelOp,
  type LinkInfo,
  type Netns,
  type QdiscInfo,
  type RouteInfo,
  type RuleInfo,
} from "../index.ts";
import { applyAddr } from "./addresses.ts";
import { onLinkUp, settleAddrconf } from "./connected.ts";
import { assertInvariants } from "./invariants.ts";
import { addBridge, addVeth, addVlan, insertLink } from "./link-create.ts";
import { bridgeVlan, deleteLink, moveLink, setBridgePort, setLink } from "./link-change.ts";
import { removeLink } from "./link-remove.ts";
import { addDummy, addIpvlan, addMacvlan, addVlanInto } from "./fake-sublinks.ts";
import { applyRoute } from "./routes.ts";
import { applyRule, ruleInfos } from "./fake-rules.ts";
import { addVrf } from "./fake-vrf.ts";
import { addrInfos, linkInfos, routeInfos, snapshotOf, type NamespaceSnapshot } from "./snapshot.ts";
import { requireLink, requireNs, type NsState, type World } from "./state.ts";
import { defaultNsSysctls } from "./sysctl-store.ts";
import { readSysctl, setSysctl } from "./sysctls.ts";
import { applyTc, qdiscInfos } from "./fake-tc.ts";

/** Decides whether the op about to run fails: `index` counts every op this kernel has run, `batchIndex` the op's place in its batch. */
export type FailurePredicate = (op: KernelOp, index: number, batchIndex: number) => boolean;

/** Options of a FakeKernel. */
export interface FakeKernelOptions {
  /** Another name for the host namespace (e.g. `/proc/1/ns/net`); ops may use either. */
  hostNetns?: string;
  /** Seed of the MAC generator (default 1): same seed, same MACs. */
  seed?: number;
}

function interpret(world: World, op: KernelOp): void {
  switch (op.op) {
    case "veth.add":
      return addVeth(world, op);
    case "bridge.add":
      return addBridge(world, op);
    case "vlan.add":
      return op.into !== undefined || op.mtu !== undefined ? addVlanInto(world, op) : addVlan(world, op);
    case "tap.add":
      return addTap(world, op);
    case "link.set":
      return setLink(world, op);
    case "bridge-port.set":
      return setBridgePort(world, op);
    case "bridge-vlan.add":
    case "bridge-vlan.del":
      return bridgeVlan(world, op);
    case "link.move":
      return moveLink(world, op);
    case "link.del":
      return deleteLink(world, op);
    case "addr.add":
    case "addr.del":
      return applyAddr(world, op);
    case "route.add":
    case "route.del":
      return applyRoute(world, op);
    case "sysctl.set":
      return setSysctl(requireNs(world, op.ns), op);
    case "rule.add":
    case "rule.del":
      return applyRule(world, op);
    case "vrf.add":
      return addVrf(world, op);
    case "macvlan.add":
      return addMacvlan(world, op);
    case "ipvlan.add":
      return addIpvlan(world, op);
    case "dummy.add":
      return addDummy(world, op);
    case "ifb.add":
    case "qdisc.add":
    case "qdisc.del":
    case "filter.add":
      return applyTc(world, op);
  }
}

/** An in-memory kernel with the real kernel's side effects, for tests and simulations. */
export class FakeKernel implements Kernel {
  readonly #world: World;
  readonly #alias: Netns | undefined;
  readonly #failures: { predicate: FailurePredicate; error: KernelError | undefined }[] = [];
  readonly #log: KernelOp[] = [];
  #opCount = 0;

  /** A machine whose host namespace (HOST) has `lo` up with 127.0.0.1/8 and ::1/128. */
  constructor(opts: FakeKernelOptions = {}) {
    this.#world = { namespaces: new Map(), macSeed: opts.seed ?? 1 };
    this.#alias = opts.hostNetns;
    const host = this.#newNs(HOST);
    const lo = host.links.get(1);
    if (lo) {
      lo.up = true;
      onLinkUp(host, lo);
    }
  }

  #resolve(ns: Netns): Netns {
    return ns === this.#alias ? HOST : ns;
  }

  #newNs(path: Netns): NsState {
    const ns: NsState = {
      path,
      links: new Map(),
      lastIndex: 0,
      addrs: [],
      routes: [],
      sysctls: defaultNsSysctls(),
      ifSysctls: new Map(),
    };
    this.#world.namespaces.set(path, ns);
    insertLink(ns, { kind: "loopback", name: "lo", mac: "00:00:00:00:00:00", mtu: 65536, up: false, promisc: false });
    return ns;
  }

  #ns(ns: Netns): NsState {
    return requireNs(this.#world, this.#resolve(ns));
  }

  /** Adds a fresh namespace with only `lo`, down and without addresses. */
  addNetns(path: Netns): void {
    if (this.#world.namespaces.has(this.#resolve(path)))
      throw new KernelError("exists", `netns "${path}" already exists`);
    this.#newNs(path);
  }

  /** Deletes a namespace: its links die, and so do veth peers in other namespaces. */
  deleteNetns(path: Netns): void {
    const ns = this.#ns(path);
    if (ns.path === HOST) throw new KernelError("invalid", "cannot delete the host netns");
    for (const link of [...ns.links.values()]) if (ns.links.has(link.index)) removeLink(this.#world, ns, link);
    this.#world.namespaces.delete(ns.path);
    assertInvariants(this.#world);
  }

  /** Every namespace, HOST first. */
  namespaces(): Netns[] {
    return [...this.#world.namespaces.keys()];
  }

  /** Where the peer of a veth lives, or undefined when `name` is not a veth. */
  peerOf(ns: Netns, name: string): { ns: Netns; name: string } | undefined {
    const state = this.#ns(ns);
    const link = [...state.links.values()].find((l) => l.name === name);
    const peer = link?.peer && this.#world.namespaces.get(link.peer.ns)?.links.get(link.peer.index);
    return link?.peer && peer ? { ns: link.peer.ns, name: peer.name } : undefined;
  }

  /** Makes ops fail: before each op, the first matching predicate throws its error (default kind `other`). */
  failAt(predicate: FailurePredicate, error?: KernelError): void {
    this.#failures.push({ predicate, error });
  }

  /** Removes every failure set with failAt. */
  clearFailures(): void {
    this.#failures.length = 0;
  }

  /** How many ops this kernel has run (the `index` failAt predicates see next). */
  get opCount(): number {
    return this.#opCount;
  }

  /** Every op applied successfully so far, in order. */
  get log(): readonly KernelOp[] {
    return this.#log;
  }

  /** The synchronous core of apply. */
  applySync(batch: KernelBatch): void {
    try {
      for (const [i, op] of batch.entries()) {
        const index = this.#opCount++;
        const fail = this.#failures.find((f) => f.predicate(op, index, i));
        if (fail) {
          const e = fail.error;
          throw new KernelError(e?.kind ?? "other", e?.message ?? `injected failure at op ${index} ("${op.op}")`, i);
        }
        try {
          interpret(this.#world, this.#resolveOp(op));
        } catch (e) {
          throw e instanceof KernelError && e.opIndex === undefined ? new KernelError(e.kind, e.message, i) : e;
        }
        this.#log.push(op);
        settleAddrconf(this.#world);
      }
    } finally {
      assertInvariants(this.#world);
    }
  }

  #resolveOp(op: KernelOp): KernelOp {
    if (this.#alias === undefined) return op;
    const out = { ...op, ns: this.#resolve(op.ns) } as KernelOp;
    if (out.op === "veth.add") out.peer = { ...out.peer, ns: this.#resolve(out.peer.ns) };
    if (out.op === "link.move") out.to = this.#resolve(out.to);
    if ((out.op === "macvlan.add" || out.op === "ipvlan.add" || out.op === "vlan.add") && out.into !== undefined)
      out.into = this.#resolve(out.into);
    return out;
  }

  /** Applies a batch in order; throws a KernelError at the first failure (earlier ops stay applied). */
  async apply(batch: KernelBatch): Promise<void> {
    this.applySync(batch);
  }

  /** True when the namespace exists (HOST always does). */
  async netnsExists(ns: Netns): Promise<boolean> {
    return this.#world.namespaces.has(this.#resolve(ns));
  }

  /** Every link of a namespace. */
  async links(ns: Netns): Promise<LinkInfo[]> {
    return linkInfos(this.#world, this.#ns(ns));
  }

  /** The link named `name`, or undefined when there is none. */
  async link(ns: Netns, name: string): Promise<LinkInfo | undefined> {
    return linkInfos(this.#world, this.#ns(ns)).find((l) => l.name === name);
  }

  /** Addresses of a namespace, optionally of one link. */
  async addresses(ns: Netns, dev?: string): Promise<AddrInfo[]> {
    return addrInfos(this.#ns(ns), dev);
  }

  /** Routes of a namespace's main table (or `table`), of one family or both. */
  async routes(ns: Netns, family?: 4 | 6, table?: number): Promise<RouteInfo[]> {
    const want = table ?? 254;
    return routeInfos(this.#ns(ns), family).filter((r) => (r.table ?? 254) === want);
  }

  /** Policy rules of a namespace (fake-rules.ts). */
  async rules(ns: Netns, family?: 4 | 6): Promise<RuleInfo[]> {
    return ruleInfos(this.#ns(ns), family);
  }

  /** A sysctl value, or undefined when the key does not exist. */
  async sysctl(ns: Netns, key: string): Promise<string | undefined> {
    return readSysctl(this.#ns(ns), key);
  }

  /** The qdiscs of a link (fake-tc.ts). */
  async qdiscs(ns: Netns, dev: string): Promise<QdiscInfo[]> {
    return qdiscInfos(requireLink(this.#ns(ns), dev));
  }

  /** Plain data of one namespace: links, addresses, routes, sysctls, bridge VLANs. */
  snapshot(ns: Netns): NamespaceSnapshot {
    return snapshotOf(this.#world, this.#ns(ns));
  }
}
