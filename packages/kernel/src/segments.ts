/**
 * Splits a batch into runs that one process applies: consecutive operations in the same
 * network namespace for the same tool (ARCHITECTURE.md "The kernel seam": one `ip -batch -`
 * per namespace run). Pure.
 */
import { KernelError } from "./kernel.ts";
import { renderOp, type Tool } from "./lines.ts";
import { HOST, type KernelBatch, type KernelOp, type Netns } from "./ops.ts";

/** A run of operations applied by one tool invocation inside one namespace. */
export interface Segment {
  ns: Netns;
  tool: Tool;
  /** One line per operation, in batch order. */
  lines: string[];
  /** Index in the batch of the segment's first operation. */
  first: number;
}

/** The batch with {@link HOST} replaced by `host` everywhere (a driver told where "host" is). */
export function resolveHost(batch: KernelBatch, host: Netns): KernelOp[] {
  const r = (ns: Netns): Netns => (ns === HOST ? host : ns);
  return batch.map((op): KernelOp => {
    if (op.op === "veth.add") return { ...op, ns: r(op.ns), peer: { ...op.peer, ns: r(op.peer.ns) } };
    if (op.op === "link.move") return { ...op, ns: r(op.ns), to: r(op.to) };
    if ((op.op === "macvlan.add" || op.op === "ipvlan.add" || op.op === "vlan.add") && op.into !== undefined)
      return { ...op, ns: r(op.ns), into: r(op.into) };
    return { ...op, ns: r(op.ns) };
  });
}

/**
 * Groups a batch into segments. `hostRef` is how other namespaces name the host one (see
 * renderOp). Throws KernelError `invalid` with the op's index when an op cannot be rendered.
 */
export function segmentBatch(batch: KernelBatch, hostRef: string): Segment[] {
  const out: Segment[] = [];
  batch.forEach((op, index) => {
    let rendered;
    try {
      rendered = renderOp(op, hostRef);
    } catch (e) {
      if (e instanceof KernelError) throw new KernelError(e.kind, e.message, index);
      throw e;
    }
    const last = out[out.length - 1];
    if (last !== undefined && last.ns === op.ns && last.tool === rendered.tool) last.lines.push(rendered.line);
    else out.push({ ns: op.ns, tool: rendered.tool, lines: [rendered.line], first: index });
  });
  return out;
}
