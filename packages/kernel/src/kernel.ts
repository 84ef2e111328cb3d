/**
 * The Kernel port: the only way plugins touch the network. Writes are batches of
 * {@link KernelOp}; reads return typed snapshots of one namespace.
 */
import type { KernelBatch, Netns, RouteScope } from "./ops.ts";
import type { RuleInfo } from "./rule.ts";
import type { QdiscInfo } from "./ops-tc.ts";

/** A link as seen in one namespace. */
export interface LinkInfo {
  index: number;
  name: string;
  /** `veth`, `bridge`, `vlan`, `loopback`, `dummy`, ... */
  kind: string;
  mac: string;
  mtu: number;
  /** Administratively up (IFF_UP). */
  up: boolean;
  /** Operational state as the kernel reports it: `UP`, `DOWN`, `UNKNOWN`, `LOWERLAYERDOWN`, ... */
  operState: string;
  promisc: boolean;
  /** IFF_ALLMULTI as set by the user (the flag `ip link` prints as ALLMULTI); present only when on. */
  allmulti?: boolean;
  /** The transmit queue length (`txqlen`). */
  txQLen?: number;
  /** IFLA_PROMISCUITY: how many holders want promiscuous mode (a bridge port counts one); Go's netlink `Attrs().Promisc`. */
  promiscuity?: number;
  /** Name of the bridge this link is enslaved to. */
  master?: string;
  /** For a veth: the peer's interface index (in the peer's own namespace). */
  peerIndex?: number;
  /** For a bridge port: hairpin and isolated flags. */
  hairpin?: boolean;
  isolated?: boolean;
  /** For a bridge: whether VLAN filtering is on. */
  vlanFiltering?: boolean;
  /** For a vlan link: its id and parent. */
  vlanId?: number;
  parent?: string;
  /** For a VRF: its routing table. */
  vrfTable?: number;
  /** For a macvlan: its mode. */
  macvlanMode?: string;
  /** For an ipvlan: its mode and flag. */
  ipvlanMode?: string;
  ipvlanFlag?: string;
  /** The link's alias (IFLA_IFALIAS), when it has one. */
  alias?: string;
}

/** An address on a link. */
export interface AddrInfo {
  dev: string;
  /** CIDR with host bits, e.g. `198.18.0.5/24`. */
  cidr: string;
  family: 4 | 6;
  scope: RouteScope | string;
  /** IPv4: the broadcast address, when the address has one. */
  broadcast?: string;
  /** IPv6 DAD state. */
  tentative?: boolean;
  dadfailed?: boolean;
}

/** A route in the main table (or `table` when set). */
export interface RouteInfo {
  /** Destination CIDR; default routes are `0.0.0.0/0` / `::/0`. */
  dst: string;
  family: 4 | 6;
  gw?: string;
  dev?: string;
  src?: string;
  scope: RouteScope | string;
  table?: number;
  metric?: number;
  mtu?: number;
  advmss?: number;
  /** `kernel` for automatic prefix routes, `boot`/`static` otherwise. */
  protocol?: string;
}

/** What kind of failure a kernel operation hit: callers branch on these. */
export type KernelErrorKind = "not-found" | "exists" | "unreachable" | "netns-gone" | "invalid" | "other";

/** A failed kernel operation, with the kind callers branch on. */
export class KernelError extends Error {
  readonly kind: KernelErrorKind;
  /** Index in the batch of the operation that failed, when known. */
  readonly opIndex: number | undefined;

  constructor(kind: KernelErrorKind, message: string, opIndex?: number) {
    super(message);
    this.name = "KernelError";
    this.kind = kind;
    this.opIndex = opIndex;
  }
}

/** The port through which plugins read and change the network. */
export interface Kernel {
  /** Applies a batch in order; throws a KernelError at the first failure (earlier ops stay applied). */
  apply(batch: KernelBatch): Promise<void>;
  /** True when the namespace exists (HOST always does). */
  netnsExists(ns: Netns): Promise<boolean>;
  /** Every link of a namespace. Throws KernelError `netns-gone` when it does not exist. */
  links(ns: Netns): Promise<LinkInfo[]>;
  /**
   * The link named `name`, as {@link links} would list it, or undefined when there is none
   * (an altname is not its name). Reads that one link, not the whole namespace.
   */
  link(ns: Netns, name: string): Promise<LinkInfo | undefined>;
  /** Addresses of a namespace, optionally of one link. */
  addresses(ns: Netns, dev?: string): Promise<AddrInfo[]>;
  /** Routes of a namespace's main table (or of `table`), of one family or both. */
  routes(ns: Netns, family?: 4 | 6, table?: number): Promise<RouteInfo[]>;
  /** Policy routing rules of a namespace, of one family or both, in priority order (`ip rule show`). */
  rules(ns: Netns, family?: 4 | 6): Promise<RuleInfo[]>;
  /** A sysctl value (dotted key), or undefined when the key does not exist. */
  sysctl(ns: Netns, key: string): Promise<string | undefined>;
  /** The qdiscs of link `dev` in the kernel's dump order (root first); KernelError `not-found` when there is no such link. */
  qdiscs(ns: Netns, dev: string): Promise<QdiscInfo[]>;
}
