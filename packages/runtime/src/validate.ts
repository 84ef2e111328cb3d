/**
 * Validating a list (VN-5, §7.6): every plugin must exist and support the list's version.
 */
import { getVersionInfo } from "@tscni/invoke";
import { CniError, ErrorCode } from "@tscni/spec";
import type { NetworkConfigList } from "@tscni/config";
import { invokeOptions } from "./context.ts";
import type { RuntimeContext } from "./context.ts";

async function validatePlugin(ctx: RuntimeContext, type: string, version: string): Promise<void> {
  const path = await ctx.exec.findInPath(type, ctx.paths);
  const expected = version === "" ? "0.1.0" : version;
  const info = await getVersionInfo(path, invokeOptions(ctx));
  if (!info.supportedVersions.includes(expected)) {
    throw new CniError(
      ErrorCode.IncompatibleCNIVersion,
      `plugin ${type} does not support config version ${JSON.stringify(expected)}`,
    );
  }
}

/**
 * Probes every plugin with VERSION and returns the enabled capabilities of the list, sorted.
 * All plugins' errors are reported together, formatted like a Go slice: `[err1 err2]`.
 */
export async function validateNetworkList(ctx: RuntimeContext, list: NetworkConfigList): Promise<string[]> {
  const caps = new Set<string>();
  const errors: CniError[] = [];
  for (const plugin of list.plugins) {
    try {
      await validatePlugin(ctx, plugin.network.type, list.cniVersion);
    } catch (err) {
      errors.push(CniError.from(err));
    }
    for (const [name, enabled] of Object.entries(plugin.network.capabilities ?? {}))
      if (enabled === true) caps.add(name);
  }
  const first = errors[0];
  if (first !== undefined) throw new CniError(first.code, `[${errors.map((e) => e.toString()).join(" ")}]`);
  return [...caps].sort();
}
