/**
 * What bandwidth's ADD does to the kernel, as data (pure): the ingress limit as a tbf at
 * the root of the host end of the container's veth; the egress limit as an ifb device, an
 * ingress qdisc on the host end whose match-all u32 filter redirects every packet to the
 * ifb, and a tbf at the root of the ifb. In the reference's order and with its handles
 * (ifb_creator.go), so the requests are the reference's (netlink/fixtures/reference-tc.json).
 */
import { ETH_P_ALL, HOST, TC_H_INGRESS, TC_H_ROOT, tcHandle, type KernelOp } from "@tscni/kernel";
import type { BandwidthEntry } from "./config.ts";
import { tbfParams } from "./tbf.ts";

/** The reference's maxIfbDeviceLength and ifbDevicePrefix. */
const IFB_NAME_LENGTH = 15;
const IFB_PREFIX = "bwp";

/** The ifb's name: `bwp` and the SHA-512 hex of network name + container ID, 15 characters (getIfbDeviceName). */
export function ifbName(network: string, containerID: string): string {
  return (IFB_PREFIX + new Bun.CryptoHasher("sha512").update(network + containerID).digest("hex")).slice(
    0,
    IFB_NAME_LENGTH,
  );
}

/** What the ADD plan needs to know of the host. */
export interface AddTarget {
  /** The host end of the container's veth. */
  hostIf: string;
  /** Its MTU, which the ifb takes. */
  hostMtu: number;
  /** The ifb's name ({@link ifbName}). */
  ifb: string;
}

/** True when the entry shapes ingress (both rate and burst set). */
export const shapesIngress = (b: BandwidthEntry): boolean => b.ingressRate > 0 && b.ingressBurst > 0;
/** True when the entry shapes egress (both rate and burst set). */
export const shapesEgress = (b: BandwidthEntry): boolean => b.egressRate > 0 && b.egressBurst > 0;

const INGRESS_HANDLE = tcHandle(0xffff, 0);

/** The ops of ADD, in the reference's order. */
export function planBandwidthAdd(b: BandwidthEntry, t: AddTarget): KernelOp[] {
  const tbf = (dev: string, rate: number, burst: number): KernelOp => ({
    op: "qdisc.add",
    ns: HOST,
    dev,
    kind: "tbf",
    handle: tcHandle(1, 0),
    parent: TC_H_ROOT,
    tbf: tbfParams(rate, burst),
  });
  const ops: KernelOp[] = [];
  if (shapesIngress(b)) ops.push(tbf(t.hostIf, b.ingressRate, b.ingressBurst));
  if (shapesEgress(b)) {
    // TxQLen 0 as the reference sends it (ifb_creator.go, upstream PR 1097).
    ops.push({ op: "ifb.add", ns: HOST, name: t.ifb, mtu: t.hostMtu, txqlen: 0, up: true });
    ops.push({
      op: "qdisc.add",
      ns: HOST,
      dev: t.hostIf,
      kind: "ingress",
      handle: INGRESS_HANDLE,
      parent: TC_H_INGRESS,
    });
    // The reference's netlink.U32 has RedirIndex and one more mirred action: two redirects,
    // the first stolen (it wins), the second with the zero verdict (pass).
    const redirect = (verdict: "stolen" | "pass") => ({
      kind: "mirred" as const,
      action: "egress-redirect" as const,
      dev: t.ifb,
      verdict,
    });
    ops.push({
      op: "filter.add",
      ns: HOST,
      dev: t.hostIf,
      parent: INGRESS_HANDLE,
      priority: 1,
      protocol: ETH_P_ALL,
      kind: "u32",
      classId: tcHandle(1, 1),
      actions: [redirect("stolen"), redirect("pass")],
    });
    ops.push(tbf(t.ifb, b.egressRate, b.egressBurst));
  }
  return ops;
}

/**
 * The ops that undo the first `applied` ops of an ADD plan (a failed ADD leaves nothing,
 * ADD-6): the ifb goes (with its qdisc), the host end's root and ingress qdiscs go (the
 * filter with the ingress one). Newest first.
 */
export function planRollback(ops: readonly KernelOp[], applied: number): KernelOp[] {
  const undo: KernelOp[] = [];
  for (const op of ops.slice(0, applied)) {
    if (op.op === "ifb.add") undo.unshift({ op: "link.del", ns: op.ns, name: op.name });
    else if (
      op.op === "qdisc.add" &&
      !(op.parent === TC_H_ROOT && undo.some((u) => u.op === "link.del" && u.name === op.dev))
    )
      undo.unshift({ op: "qdisc.del", ns: op.ns, dev: op.dev, parent: op.parent });
  }
  return undo;
}
