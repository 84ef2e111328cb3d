/**
 * Throwaway network namespaces for real-kernel tests: `ip netns add tscni-<tag>-<random>`
 * and its deletion. Tests address them by path only, so nothing ever touches the machine's
 * own namespace.
 */
import type { KernelBatch, KernelOp, Netns } from "../ops.ts";
import { toolPath } from "../linux/runner.ts";

/** A named namespace under /var/run/netns. */
export interface ThrowawayNetns {
  name: string;
  path: string;
}

/** True when this process can create namespaces (real-kernel tests need root). */
export function canUseRealKernel(): boolean {
  return process.getuid?.() === 0 && process.platform === "linux";
}

/**
 * Creates `tscni-<tag>-<random>` (or exactly `opts.name`, for a test that must replay the
 * same names twice), its loopback up unless `loopbackUp` is false; throws when `ip` fails.
 */
export function createThrowawayNetns(tag = "k", opts: { loopbackUp?: boolean; name?: string } = {}): ThrowawayNetns {
  const name = opts.name ?? `tscni-${tag}-${Math.random().toString(36).slice(2, 10)}`;
  const ip = toolPath("ip");
  const steps = [[ip, "netns", "add", name]];
  if (opts.loopbackUp !== false) steps.push([ip, "-n", name, "link", "set", "lo", "up"]);
  for (const argv of steps) {
    const r = Bun.spawnSync(argv, { stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr.toString().trim()}`);
  }
  return { name, path: `/var/run/netns/${name}` };
}

/** Deletes a throwaway namespace (and every link in it); never throws. */
export function deleteThrowawayNetns(ns: ThrowawayNetns | undefined): void {
  if (ns !== undefined) Bun.spawnSync([toolPath("ip"), "netns", "del", ns.name], { stderr: "ignore" });
}

/** Runs `fn` with fresh namespaces, deleting them afterwards even when it throws. */
export async function withThrowawayNetns<T>(
  count: number,
  fn: (ns: ThrowawayNetns[]) => Promise<T>,
  tag = "k",
): Promise<T> {
  const made: ThrowawayNetns[] = [];
  try {
    for (let i = 0; i < count; i++) made.push(createThrowawayNetns(tag));
    return await fn(made);
  } finally {
    for (const ns of made) deleteThrowawayNetns(ns);
  }
}

/**
 * The batch with every mention of namespace `from` (a placeholder a test generated
 * batches with) replaced by `to`: the ops' own namespace, a veth peer's and a move's target.
 */
export function placeBatch(batch: KernelBatch, from: Netns, to: Netns): KernelOp[] {
  const r = (n: Netns): Netns => (n === from ? to : n);
  return batch.map((o): KernelOp => {
    if (o.op === "veth.add") return { ...o, ns: r(o.ns), peer: { ...o.peer, ns: r(o.peer.ns) } };
    if (o.op === "link.move") return { ...o, ns: r(o.ns), to: r(o.to) };
    return { ...o, ns: r(o.ns) };
  });
}
