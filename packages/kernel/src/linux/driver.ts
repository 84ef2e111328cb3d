/**
 * The Linux driver of the {@link Kernel} port: applies a batch as one `ip -batch -` (or
 * `bridge -batch -`) process per run of operations in one namespace, writes sysctls to
 * /proc/sys inside the namespace, and reads state through `ip -json`.
 */
import { KernelError, type AddrInfo, type Kernel, type LinkInfo, type RouteInfo } from "../kernel.ts";
import { isSysctlKey, sysctlPath } from "../lines.ts";
import { HOST, type KernelBatch, type KernelOp, type Netns } from "../ops.ts";
import { resolveHost, segmentBatch, type Segment } from "../segments.ts";
import { classify, reason, segmentError } from "./errors.ts";
import { parseAddrs, parseLinks, parseRoutes } from "./parse.ts";
import { parseRules } from "./parse-rule.ts";
import type { RuleInfo } from "../rule.ts";
import { createNsenterRunner, isNetnsFile, toolPath, type NsRunner, type RunResult } from "./runner.ts";
import { createSetnsRunner } from "./setns.ts";

/** Options of {@link createLinuxKernel}. */
export interface LinuxKernelOptions {
  /**
   * The netns path that {@link HOST} stands for. Default: the namespace this process runs
   * in. Tests set it so that the driver never touches the machine's own namespace.
   */
  host?: string;
  /** How to enter a namespace: `setns` through bun:ffi (default) or an `nsenter` process. */
  netnsSwitch?: "setns" | "nsenter";
}

export { sysctlPath };

/** Namespaces an op names besides its own (a veth's peer side, a move's target). */
function otherNs(op: KernelOp): Netns | undefined {
  if (op.op === "veth.add") return op.peer.ns;
  if (op.op === "link.move") return op.to;
  if (op.op === "macvlan.add" || op.op === "ipvlan.add" || op.op === "vlan.add") return op.into;
  return undefined;
}

/** Creates the driver; nothing is loaded or spawned until the first call. */
export function createLinuxKernel(opts: LinuxKernelOptions = {}): Kernel {
  let runner: Promise<NsRunner> | undefined;
  const ready = (): Promise<NsRunner> =>
    (runner ??= opts.netnsSwitch === "nsenter" ? Promise.resolve(createNsenterRunner()) : createSetnsRunner());
  const tools = { ip: toolPath("ip"), bridge: toolPath("bridge"), tc: toolPath("tc") };
  // IPv6 rules need `ip -6` (a batch line cannot say so).
  const argvOf = (tool: "ip" | "bridge" | "ip6" | "tc"): string[] =>
    tool === "ip6" ? [tools.ip, "-6", "-batch", "-"] : [tools[tool], "-batch", "-"];
  const where = (ns: Netns): string | undefined => (ns === HOST ? opts.host : ns);

  function runSegment(r: NsRunner, ops: readonly KernelOp[], seg: Segment): void {
    const ns = where(seg.ns);
    // A namespace named by an op must exist: stop there, after the ops before it.
    const bad = seg.lines.findIndex((_, i) => {
      const other = otherNs(ops[seg.first + i] as KernelOp);
      return other !== undefined && other !== HOST && !isNetnsFile(other);
    });
    if (bad >= 0) {
      if (bad > 0) runSegment(r, ops, { ...seg, lines: seg.lines.slice(0, bad) });
      const op = ops[seg.first + bad] as KernelOp;
      throw new KernelError("netns-gone", `netns "${otherNs(op)}" does not exist`, seg.first + bad);
    }
    try {
      if (seg.tool === "sysctl") {
        seg.lines.forEach((_, i) => {
          const op = ops[seg.first + i] as KernelOp & { op: "sysctl.set" };
          try {
            r.writeFile(ns, sysctlPath(op.key), op.value);
          } catch (e) {
            if (e instanceof KernelError)
              throw new KernelError(e.kind, `sysctl "${op.key}": ${e.message}`, seg.first + i);
            throw e;
          }
        });
        return;
      }
      const [res] = r.exec(ns, [{ argv: argvOf(seg.tool), stdin: `${seg.lines.join("\n")}\n` }]);
      if (res !== undefined && res.exitCode !== 0) throw segmentError(seg, res.stderr);
    } catch (e) {
      // The namespace itself was gone: blame the segment's first op.
      if (e instanceof KernelError && e.kind === "netns-gone" && e.opIndex === undefined)
        throw new KernelError(e.kind, e.message, seg.first);
      throw e;
    }
  }

  async function read(ns: Netns, args: readonly (readonly string[])[]): Promise<string[]> {
    const r = await ready();
    const results: RunResult[] = r.exec(
      where(ns),
      args.map((a) => ({ argv: [tools.ip, "-json", ...a] })),
    );
    return results.map((res, i) => {
      if (res.exitCode !== 0)
        throw new KernelError(classify(res.stderr), `ip ${args[i]?.join(" ")}: ${reason(res.stderr)}`);
      return res.stdout;
    });
  }

  return {
    async apply(batch: KernelBatch): Promise<void> {
      const r = await ready();
      const ops = opts.host === undefined ? batch : resolveHost(batch, opts.host);
      for (const seg of segmentBatch(ops, r.hostRef)) runSegment(r, ops, seg);
    },
    async netnsExists(ns: Netns): Promise<boolean> {
      const path = where(ns);
      return path === undefined || isNetnsFile(path);
    },
    async links(ns: Netns): Promise<LinkInfo[]> {
      const [out = ""] = await read(ns, [["-details", "link", "show"]]);
      return parseLinks(out);
    },
    async link(ns: Netns, name: string): Promise<LinkInfo | undefined> {
      try {
        const [out = ""] = await read(ns, [["-details", "link", "show", "dev", name]]);
        // `dev` also matches an altname; only the link's own name counts.
        return parseLinks(out).find((l) => l.name === name);
      } catch (e) {
        // `Device "x" does not exist.` (also for a name no link could have).
        if (e instanceof KernelError && e.kind === "not-found") return undefined;
        throw e;
      }
    },
    async addresses(ns: Netns, dev?: string): Promise<AddrInfo[]> {
      const [out = ""] = await read(ns, [["addr", "show"]]);
      const all = parseAddrs(out);
      return dev === undefined ? all : all.filter((a) => a.dev === dev);
    },
    async routes(ns: Netns, family?: 4 | 6, table?: number): Promise<RouteInfo[]> {
      const families: (4 | 6)[] = family === undefined ? [4, 6] : [family];
      const outs = await read(
        ns,
        families.map((f) => [`-${f}`, "route", "show", "table", String(table ?? "main")]),
      );
      // `ip route show table N` leaves out the table it was asked for; the netlink driver names it.
      const named = (r: RouteInfo): RouteInfo => (table === undefined || table === 254 ? r : { ...r, table });
      return families.flatMap((f, i) => parseRoutes(outs[i] ?? "", f).map(named));
    },
    async rules(ns: Netns, family?: 4 | 6): Promise<RuleInfo[]> {
      const families: (4 | 6)[] = family === undefined ? [4, 6] : [family];
      const outs = await read(
        ns,
        families.map((f) => [`-${f}`, "rule", "show"]),
      );
      return families.flatMap((f, i) => parseRules(outs[i] ?? "", f));
    },
    async sysctl(ns: Netns, key: string): Promise<string | undefined> {
      if (!isSysctlKey(key)) throw new KernelError("invalid", `invalid sysctl key "${key}"`);
      const r = await ready();
      return r.readFile(where(ns), sysctlPath(key))?.replace(/\n$/, "");
    },
    // `tc -json` prints a tbf's burst and latency, not the limit and buffer CHECK compares:
    // read the same dump the netlink driver reads (loaded only for this read).
    qdiscs: async (ns: Netns, dev: string) =>
      (await import("../netlink/driver.ts"))
        .createNetlinkKernel(opts.host === undefined ? {} : { host: opts.host })
        .qdiscs(ns, dev),
  };
}
