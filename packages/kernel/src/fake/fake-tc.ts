/**
 * Traffic control in the fake kernel: `ifb.add` creates an ifb link; `qdisc.add`,
 * `qdisc.del` and `filter.add` keep each link's qdiscs and filters on the link itself, so
 * they go with it when it is deleted (as the kernel destroys a device's qdiscs). An up link
 * without a root qdisc reports `noqueue 0: root`, as Linux 6.18 does for every kind the
 * fake models (a never-up link has the hidden noop qdisc). Simplifications: a link that
 * went down again keeps its noqueue in Linux, not in the fake; one root and one ingress qdisc per link (no classful
 * qdiscs), filters only on the ingress qdisc, and a filter's actions name their target by
 * name (the kernel keeps the index).
 */
import {
  KernelError,
  TC_H_INGRESS,
  TC_H_ROOT,
  type FilterAdd,
  type IfbAdd,
  type QdiscAdd,
  type QdiscDel,
  type QdiscInfo,
  type TcOp,
} from "../index.ts";
import { checkFree, checkMtu, checkName } from "./link-create.ts";
import { insertLink } from "./link-create.ts";
import { onLinkUp } from "./connected.ts";
import { nextMac, requireLink, requireNs, type Link, type World } from "./state.ts";
import { tbfMaxSize } from "./tbf-max-size.ts";

/** The traffic-control state of one link. */
export interface LinkTc {
  qdiscs: QdiscInfo[];
  filters: Omit<FilterAdd, "op" | "ns">[];
}

function tcOf(link: Link): LinkTc {
  link.tc ??= { qdiscs: [], filters: [] };
  return link.tc;
}

function addIfb(world: World, op: IfbAdd): void {
  const ns = requireNs(world, op.ns);
  checkName(op.name);
  checkFree(ns, op.name);
  const link = insertLink(ns, {
    kind: "ifb",
    name: op.name,
    mtu: checkMtu(op.mtu ?? 1500),
    mac: nextMac(world),
    up: op.up === true,
    promisc: false,
  });
  if (link.up) onLinkUp(ns, link);
}

function addQdisc(world: World, op: QdiscAdd): void {
  const link = requireLink(requireNs(world, op.ns), op.dev);
  const tc = tcOf(link);
  if (op.parent !== TC_H_ROOT && op.parent !== TC_H_INGRESS)
    throw new KernelError("invalid", `the fake kernel has no class "${op.parent}" on "${op.dev}"`);
  if ((op.parent === TC_H_INGRESS) !== (op.kind === "ingress"))
    throw new KernelError("invalid", `a ${op.kind} qdisc cannot have parent ${op.parent} (Invalid argument)`);
  // NLM_F_EXCL: the kernel refuses a second qdisc at the same place (File exists).
  if (tc.qdiscs.some((q) => q.parent === op.parent))
    throw new KernelError(
      "exists",
      `a qdisc already exists at the ${op.kind === "ingress" ? "ingress" : "root"} of "${op.dev}"`,
    );
  // Then sch_tbf.c's tbf_change: a bucket that cannot send one byte is EINVAL (below the MTU is only a warning).
  if (op.kind === "tbf" && tbfMaxSize(op.tbf ?? { rate: 0, limit: 0, buffer: 0 }) === 0)
    throw new KernelError(
      "invalid",
      `a tbf on "${op.dev}" whose buffer cannot hold one byte at its rate (Invalid argument)`,
    );
  const q: QdiscInfo = {
    dev: op.dev,
    kind: op.kind,
    handle: op.handle,
    parent: op.parent,
    ...(op.tbf !== undefined && { tbf: { ...op.tbf } }),
  };
  // The root qdisc is dumped before the ingress one.
  if (op.parent === TC_H_ROOT) tc.qdiscs.unshift(q);
  else tc.qdiscs.push(q);
}

function delQdisc(world: World, op: QdiscDel): void {
  const link = requireLink(requireNs(world, op.ns), op.dev);
  const tc = tcOf(link);
  const at = tc.qdiscs.findIndex((q) => q.parent === op.parent);
  // ENOENT both (the root then is the builtin noop or the default noqueue, whose handle is
  // 0): nothing to delete, so not-found, as the netlink driver classifies the errno.
  if (at < 0)
    throw new KernelError(
      "not-found",
      op.parent === TC_H_ROOT
        ? `cannot delete qdisc with handle of zero on "${op.dev}"`
        : `invalid handle: no qdisc at ${op.parent} on "${op.dev}"`,
    );
  const [gone] = tc.qdiscs.splice(at, 1);
  // A qdisc takes the filters attached to it.
  tc.filters = tc.filters.filter((f) => f.parent !== gone?.handle);
}

function addFilter(world: World, op: FilterAdd): void {
  const ns = requireNs(world, op.ns);
  const link = requireLink(ns, op.dev);
  for (const a of op.actions) requireLink(ns, a.dev);
  const tc = tcOf(link);
  if (!tc.qdiscs.some((q) => q.handle === op.parent))
    throw new KernelError("invalid", `no qdisc ${op.parent} on "${op.dev}" to attach a filter to (Invalid argument)`);
  const { op: _op, ns: _ns, ...filter } = op;
  tc.filters.push({ ...filter, actions: filter.actions.map((a) => ({ ...a })) });
}

/** Interprets one traffic-control op. */
export function applyTc(world: World, op: TcOp): void {
  switch (op.op) {
    case "ifb.add":
      return addIfb(world, op);
    case "qdisc.add":
      return addQdisc(world, op);
    case "qdisc.del":
      return delQdisc(world, op);
    case "filter.add":
      return addFilter(world, op);
  }
}

/** The qdiscs of a link as the Kernel port reads them: `noqueue` at the root of an up link when none was added. */
export function qdiscInfos(link: Link): QdiscInfo[] {
  const added = link.tc?.qdiscs ?? [];
  const root: QdiscInfo[] =
    !link.up || added.some((q) => q.parent === TC_H_ROOT)
      ? []
      : [{ dev: link.name, kind: "noqueue", handle: 0, parent: TC_H_ROOT }];
  return [...root, ...added.map((q) => ({ ...q, dev: link.name, ...(q.tbf !== undefined && { tbf: { ...q.tbf } }) }))];
}

/** Every link's added qdiscs and filters, by link name (links without any left out): the snapshot's `tc`. */
export function tcTable(links: Iterable<Link>): Record<string, LinkTc> {
  const out: Record<string, LinkTc> = {};
  for (const l of [...links].sort((a, b) => a.index - b.index)) {
    if (l.tc === undefined || (l.tc.qdiscs.length === 0 && l.tc.filters.length === 0)) continue;
    out[l.name] = {
      qdiscs: qdiscInfos(l).filter((q) => q.kind !== "noqueue"),
      filters: l.tc.filters.map((f) => ({ ...f, actions: f.actions.map((a) => ({ ...a })) })),
    };
  }
  return out;
}
