/**
 * The loopback plugin (SPEC.md §8.4): brings `lo` up in the container's namespace and
 * reports it. CNI_IFNAME is ignored; the plugin always works on `lo` (LO-1).
 */
import { KernelError } from "@tscni/kernel";
import type { Kernel } from "@tscni/kernel";
import { parsePrevResult, pluginMain } from "@tscni/skel";
import type { CmdArgs, PluginDefinition, PluginIO } from "@tscni/skel";
import { CniError, ErrorCode, VERSIONS } from "@tscni/spec";
import type { IPConfig100, Result, Result100 } from "@tscni/spec";
import { isLoopbackAddress } from "./address.ts";

const LO = "lo";

/** The JSON kind Go names in "cannot unmarshal <kind>". */
const jsonKind = (x: unknown): string => (Array.isArray(x) ? "array" : typeof x === "boolean" ? "bool" : typeof x);

/**
 * prevResult in the words of the reference's loopback, which parses the config then the
 * result: a prevResult that is not an object is an invalid config (code 7), one that does
 * not parse keeps its cause's code (6, or 1 for a version clash; SPEC §4.2).
 */
function loopbackPrevResult(config: CmdArgs["config"]): Result100 | undefined {
  const raw: unknown = config.prevResult;
  // v1.1.1 (Debian) differs: code 999 for both (plain errors); SPEC §4.2 gives codes 7 and 6
  if (raw !== undefined && raw !== null && (typeof raw !== "object" || Array.isArray(raw))) {
    throw new CniError(
      ErrorCode.InvalidNetworkConfig,
      `failed to parse network config: json: cannot unmarshal ${jsonKind(raw)} into Go struct field NetConf.prevResult of type map[string]interface {}`,
    );
  }
  try {
    return parsePrevResult(config);
  } catch (err) {
    const e = CniError.from(err);
    throw new CniError(e.code, `failed to parse prevResult: ${e.msg}`, e.details);
  }
}

/** Brings `lo` up, checks its addresses, and returns prevResult or a result for `lo` (LO-2). */
async function add(kernel: Kernel, a: CmdArgs): Promise<Result> {
  const prev = loopbackPrevResult(a.config);
  await kernel.apply([{ op: "link.set", ns: a.netns, name: LO, up: true }]);
  const addrs = await kernel.addresses(a.netns, LO);
  const ips: IPConfig100[] = [];
  for (const family of [4, 6] as const) {
    const own = addrs.filter((x) => x.family === family);
    for (const x of own) {
      if (!isLoopbackAddress(x.cidr)) {
        throw new Error(`loopback interface found with non-loopback address "${x.cidr.split("/")[0]}"`);
      }
    }
    // The first address of each family, like the reference (e.g. 127.0.0.1/8, ::1/128).
    const first = own[0];
    if (first !== undefined) ips.push({ address: first.cidr, interface: 0 });
  }
  // Chained: pass the previous result through; skel prints it in the config version.
  if (prev !== undefined) return prev;
  const result: Result100 = {
    cniVersion: "1.1.0",
    interfaces: [{ name: LO, mac: "00:00:00:00:00:00", sandbox: a.netns }],
  };
  if (ips.length > 0) result.ips = ips;
  return result;
}

/** Sets `lo` down; an empty or vanished netns is success (LO-3, DEL-2). */
async function del(kernel: Kernel, a: CmdArgs): Promise<void> {
  if (a.netns === "" || !(await kernel.netnsExists(a.netns))) return;
  try {
    await kernel.apply([{ op: "link.set", ns: a.netns, name: LO, up: false }]);
  } catch (err) {
    // The namespace may vanish between the two calls.
    if (err instanceof KernelError && err.kind === "netns-gone") return;
    throw err;
  }
}

/** Fails unless `lo` is up (LO-4). */
async function check(kernel: Kernel, a: CmdArgs): Promise<void> {
  const lo = await kernel.link(a.netns, LO);
  if (lo === undefined) throw new Error(`link "${LO}" not found`);
  if (!lo.up) throw new Error("loopback interface is down");
}

/**
 * The loopback plugin over a kernel: every spec version, no STATUS or GC handler (LO-5).
 *
 * @example await pluginMain(definition(new FakeKernel()), io)
 */
export function definition(kernel: Kernel): PluginDefinition {
  return {
    name: "loopback",
    about: "CNI loopback plugin (tscni)",
    versions: VERSIONS,
    handlers: {
      add: (a) => add(kernel, a),
      del: (a) => del(kernel, a),
      check: (a) => check(kernel, a),
    },
  };
}

/** The binary's entry for `loopback`: the plugin over the real Linux kernel. */
export async function main(io: PluginIO): Promise<number> {
  // Loaded here, not at module top, so that only this entry pulls in the driver.
  const { createLinuxKernel } = await import("@tscni/kernel/linux");
  return pluginMain(definition(createLinuxKernel()), io);
}
