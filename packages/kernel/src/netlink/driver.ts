/**
 * The netlink driver of the {@link Kernel} port (ARCHITECTURE.md "The kernel seam"): the
 * same operations and reads as the iproute2 driver (linux/driver.ts), spoken to the kernel
 * over rtnetlink sockets through bun:ffi instead of through `ip` processes. A socket is
 * created inside its namespace (setns around socket() only) and closed when the call
 * ends, so no namespace outlives its deletion because of us. Failures carry the kind,
 * op index and message text the iproute2 driver gives for the same op.
 */
import { KernelError, type AddrInfo, type Kernel, type LinkInfo, type RouteInfo } from "../kernel.ts";
import { isSysctlKey, renderOp, sysctlPath } from "../lines.ts";
import { HOST, type KernelBatch, type KernelOp, type Netns, type TapAdd } from "../ops.ts";
import { resolveHost } from "../segments.ts";
import { reason } from "../linux/errors.ts";
import { failureKind } from "./classify.ts";
import { isNetnsFile, requireNetns } from "../linux/runner.ts";
import * as K from "./constants.ts";
import {
  decodeAddrs,
  decodeLink,
  decodeLinks,
  decodeRoutes,
  linkedIndexes,
  nexthops,
  rawLink,
  type RawLink,
} from "./decode.ts";
import { encodeOp, Refused, type EncodeContext } from "./encode.ts";
import { libc, type Libc } from "../libc.ts";
import { homeFd, openNetns, readSysctlFile, within, writeSysctlFile } from "../netns.ts";
import { NetlinkError, NetlinkSocket } from "./socket.ts";
import { attrs, attrStr, MessageBuilder } from "./wire.ts";
import { decodeRules, ruleDump } from "./decode-rule.ts";
import type { RuleInfo } from "../rule.ts";
import { readQdiscs } from "./read-tc.ts";
import { createTap } from "./tuntap.ts";

/** Options of {@link createNetlinkKernel}. */
export interface NetlinkKernelOptions {
  /** The netns path that {@link HOST} stands for; default the namespace this process runs in. */
  host?: string;
}

/** Namespaces an op names besides its own (a veth's peer side, a move's target). */
function otherNs(op: KernelOp): Netns | undefined {
  if (op.op === "veth.add") return op.peer.ns;
  if (op.op === "link.move") return op.to;
  if (op.op === "macvlan.add" || op.op === "ipvlan.add" || op.op === "vlan.add") return op.into;
  return undefined;
}

/** The text iproute2 would print for a failure, for reason(): the message, never the kind. */
function failureText(e: Refused | NetlinkError): string {
  return e instanceof Refused ? e.text : e.iproute2Text;
}

/** A failure of ours or the kernel's, as opposed to a bug. */
const isFailure = (e: unknown): e is Refused | NetlinkError => e instanceof Refused || e instanceof NetlinkError;

const linkDump = () =>
  new MessageBuilder(K.RTM_GETLINK, K.NLM_F_REQUEST | K.NLM_F_DUMP)
    .fixed(16, () => {})
    .u32(K.IFLA_EXT_MASK, K.RTEXT_FILTER_SKIP_STATS);

/** Sockets (and namespace fds) of one call, closed together when it ends. */
class Session {
  private readonly sockets = new Map<string, NetlinkSocket>();
  private readonly fds = new Map<string, number>();
  constructor(
    private readonly c: Libc,
    private readonly where: (ns: Netns) => string | undefined,
  ) {}

  socket(ns: Netns): NetlinkSocket {
    const path = this.where(ns);
    const key = path ?? "";
    let s = this.sockets.get(key);
    if (s === undefined) {
      s = within(this.c, path, () => NetlinkSocket.open(this.c));
      this.sockets.set(key, s);
    }
    return s;
  }

  nsFd(ns: Netns): number {
    const path = this.where(ns);
    if (path === undefined) return homeFd(this.c);
    let fd = this.fds.get(path);
    if (fd === undefined) {
      fd = openNetns(this.c, path);
      this.fds.set(path, fd);
    }
    return fd;
  }

  links(ns: Netns): RawLink[] {
    return this.socket(ns).request(linkDump(), K.RTM_NEWLINK).map(rawLink);
  }

  /** One link by name or index, or undefined when there is none. */
  link(ns: Netns, key: string | number): RawLink | undefined {
    const m = new MessageBuilder(K.RTM_GETLINK, K.NLM_F_REQUEST | K.NLM_F_ACK).fixed(16, (v, at) =>
      v.setInt32(at + 4, typeof key === "number" ? key : 0, true),
    );
    if (typeof key === "string") m.str(K.IFLA_IFNAME, key);
    m.u32(K.IFLA_EXT_MASK, K.RTEXT_FILTER_SKIP_STATS);
    try {
      const [reply] = this.socket(ns).request(m, K.RTM_NEWLINK);
      return reply === undefined ? undefined : rawLink(reply);
    } catch (e) {
      if (e instanceof NetlinkError) return undefined;
      throw e;
    }
  }

  close(): void {
    for (const s of this.sockets.values()) s.close();
    for (const fd of this.fds.values()) this.c.close(fd);
  }
}

/** Above this many output interfaces, one link dump names them faster than one request each. */
const NAME_REQUESTS_MAX = 8;

/** Names the output interfaces of route replies: one by one when they are few (a container's table), else from a dump. */
function deviceNamer(s: Session, ns: Netns, routes: readonly DataView[]): (index: number) => string {
  const oifs = new Set<number>();
  for (const p of routes) {
    const a = attrs(p, 12);
    const oif = a.get(K.RTA_OIF);
    if (oif !== undefined) oifs.add(oif.getUint32(0, true));
    const multipath = a.get(K.RTA_MULTIPATH);
    for (const hop of multipath === undefined ? [] : nexthops(multipath)) if (hop.oif !== undefined) oifs.add(hop.oif);
  }
  const names = new Map<number, string>();
  const add = (l: RawLink | undefined) => {
    if (l !== undefined) names.set(l.index, attrStr(l.attrs.get(K.IFLA_IFNAME)) ?? "");
  };
  if (oifs.size > NAME_REQUESTS_MAX) s.links(ns).forEach(add);
  else for (const oif of oifs) add(s.link(ns, oif));
  return (index) => names.get(index) ?? `if${index}`;
}

/** `tap.add` through /dev/net/tun; a link of that name already there is "exists" (TUNSETIFF would attach to a tap). */
function applyTapAdd(s: Session, c: Libc, ns: string | undefined, op: TapAdd, index: number): void {
  if (s.link(op.ns, op.name) !== undefined)
    throw new KernelError("exists", `ip tuntap add dev ${op.name}: File exists`, index);
  try {
    createTap(c, ns, op);
  } catch (e) {
    if (e instanceof KernelError) throw new KernelError(e.kind, `ip tuntap add dev ${op.name}: ${e.message}`, index);
    throw e;
  }
}

/** Creates the driver; bun:ffi and libc load on the first call. */
export function createNetlinkKernel(opts: NetlinkKernelOptions = {}): Kernel {
  const where = (ns: Netns): string | undefined => (ns === HOST ? opts.host : ns);

  async function session<T>(work: (s: Session, c: Libc) => T): Promise<T> {
    const c = await libc();
    const s = new Session(c, where);
    try {
      return work(s, c);
    } finally {
      s.close();
    }
  }

  function read<T>(ns: Netns, what: string, work: (s: Session) => T): Promise<T> {
    return session((s) => {
      const path = where(ns);
      if (path !== undefined) requireNetns(path);
      try {
        return work(s);
      } catch (e) {
        if (!isFailure(e)) throw e;
        throw new KernelError(failureKind(e, undefined), `ip ${what}: ${reason(failureText(e))}`);
      }
    });
  }

  function applyOne(s: Session, c: Libc, op: KernelOp, index: number, hostRef: string): void {
    const ns = where(op.ns);
    const other = otherNs(op);
    // A namespace named by an op must exist: stop there, after the ops before it.
    if (other !== undefined && other !== HOST && !isNetnsFile(other))
      throw new KernelError("netns-gone", `netns "${other}" does not exist`, index);
    if (ns !== undefined && !isNetnsFile(ns))
      throw new KernelError("netns-gone", `netns "${ns}" does not exist`, index);
    if (op.op === "sysctl.set") {
      try {
        writeSysctlFile(c, ns, sysctlPath(op.key), op.value);
      } catch (e) {
        if (e instanceof KernelError) throw new KernelError(e.kind, `sysctl "${op.key}": ${e.message}`, index);
        throw e;
      }
      return;
    }
    if (op.op === "tap.add") return applyTapAdd(s, c, ns, op, index);
    const ctx: EncodeContext = {
      index: (name) => {
        const link = s.link(op.ns, name);
        if (link === undefined) throw new Refused(`Cannot find device "${name}"`, "not-found");
        return link.index;
      },
      nsFd: (n) => s.nsFd(n),
    };
    try {
      s.socket(op.ns).request(encodeOp(op, ctx));
    } catch (e) {
      if (!isFailure(e)) throw e;
      const { tool, line } = renderOp(op, hostRef);
      throw new KernelError(failureKind(e, op), `${tool} ${line}: ${reason(failureText(e))}`, index);
    }
  }

  return {
    apply: (batch: KernelBatch) =>
      session((s, c) => {
        const ops = opts.host === undefined ? batch : resolveHost(batch, opts.host);
        const hostRef = `/proc/${process.pid}/fd/${homeFd(c)}`;
        // Like the iproute2 driver, refuse a batch with an unrenderable op before applying any.
        ops.forEach((op, i) => {
          try {
            renderOp(op, hostRef);
          } catch (e) {
            if (e instanceof KernelError) throw new KernelError(e.kind, e.message, i);
            throw e;
          }
        });
        ops.forEach((op, i) => applyOne(s, c, op, i, hostRef));
      }),
    async netnsExists(ns: Netns): Promise<boolean> {
      const path = where(ns);
      return path === undefined || isNetnsFile(path);
    },
    links: (ns: Netns): Promise<LinkInfo[]> => read(ns, "-details link show", (s) => decodeLinks(s.links(ns))),
    link: (ns: Netns, name: string): Promise<LinkInfo | undefined> =>
      read(ns, `-details link show dev ${name}`, (s) => {
        const raw = s.link(ns, name);
        // A GETLINK by name also matches an altname; only the link's own name counts.
        if (raw === undefined || attrStr(raw.attrs.get(K.IFLA_IFNAME)) !== name) return undefined;
        // Its master and a vlan's parent are named as `ip` names them: one GETLINK each.
        const names = new Map(linkedIndexes(raw).map((i) => [i, attrStr(s.link(ns, i)?.attrs.get(K.IFLA_IFNAME))]));
        return decodeLink(raw, (i) => names.get(i) ?? `if${i}`);
      }),
    addresses: (ns: Netns, dev?: string): Promise<AddrInfo[]> =>
      read(ns, "addr show", (s) => {
        // One link's addresses need that link only, not a dump of all of them.
        const one = dev === undefined ? undefined : s.link(ns, dev);
        if (dev !== undefined && one === undefined) return [];
        const links = one === undefined ? s.links(ns) : [one];
        // One link's: filtered by the kernel (ifa_index under strict checking, as `ip addr
        // show dev X` asks), not a dump of every address, which grows with the host's veths.
        const socket = s.socket(ns);
        const byIndex = one !== undefined && socket.strict() ? one.index : 0;
        const dump = new MessageBuilder(K.RTM_GETADDR, K.NLM_F_REQUEST | K.NLM_F_DUMP).fixed(8, (v, at) =>
          v.setUint32(at + 4, byIndex, true),
        );
        const all = decodeAddrs(socket.request(dump, K.RTM_NEWADDR), links);
        return dev === undefined ? all : all.filter((a) => a.dev === dev);
      }),
    routes: (ns: Netns, family?: 4 | 6, table?: number): Promise<RouteInfo[]> =>
      read(ns, `route show table ${table ?? "main"}`, (s) => {
        const families: (4 | 6)[] = family === undefined ? [4, 6] : [family];
        const dumps = families.map((f) => {
          const dump = new MessageBuilder(K.RTM_GETROUTE, K.NLM_F_REQUEST | K.NLM_F_DUMP).fixed(12, (v, at) =>
            v.setUint8(at, f === 4 ? K.AF_INET : K.AF_INET6),
          );
          return s.socket(ns).request(dump, K.RTM_NEWROUTE);
        });
        const nameOf = deviceNamer(s, ns, dumps.flat());
        return families.flatMap((f, i) => decodeRoutes(dumps[i] ?? [], f, nameOf, table));
      }),
    rules: (ns: Netns, family?: 4 | 6): Promise<RuleInfo[]> =>
      read(ns, "rule show", (s) =>
        (family === undefined ? ([4, 6] as const) : [family]).flatMap((f) =>
          decodeRules(s.socket(ns).request(ruleDump(f), 32), f),
        ),
      ),
    async sysctl(ns: Netns, key: string): Promise<string | undefined> {
      if (!isSysctlKey(key)) throw new KernelError("invalid", `invalid sysctl key "${key}"`);
      return readSysctlFile(await libc(), where(ns), sysctlPath(key))?.replace(/\n$/, "");
    },
    qdiscs: (ns: Netns, dev: string) =>
      read(ns, `qdisc show dev ${dev}`, (s) => readQdiscs(s.socket(ns), s.link(ns, dev)?.index, dev)),
  };
}
