/**
 * CHECK over a list (AL-2, CHK-6, CHK-7): only at 0.4.0 and later, not at all with
 * `disableCheck`, plugins in order, each given the same cached result.
 */
import { execPluginWithoutResult } from "@tscni/invoke";
import { CniError, ErrorCode, compareVersions } from "@tscni/spec";
import type { Result } from "@tscni/spec";
import type { NetworkConfigList } from "@tscni/config";
import { cachedResult, cniArgs, invokeOptions } from "./context.ts";
import type { RuntimeContext } from "./context.ts";
import { buildRequest } from "./request.ts";
import type { RuntimeConf } from "./runtime-conf.ts";

/** Runs CHECK on every plugin of `list`; the first plugin error is returned unwrapped (E-8). */
export async function checkNetworkList(ctx: RuntimeContext, list: NetworkConfigList, rt: RuntimeConf): Promise<void> {
  // The version gate comes first, even when disableCheck is set (AL-2 step 1).
  if (compareVersions(list.cniVersion, "0.4.0") < 0) {
    throw new CniError(
      ErrorCode.IncompatibleCNIVersion,
      `configuration version ${JSON.stringify(list.cniVersion)} does not support the CHECK command`,
    );
  }
  if (list.disableCheck) return;
  let prevResult: Result | undefined;
  try {
    prevResult = await cachedResult(ctx, list, rt);
  } catch (err) {
    const inner = CniError.from(err);
    throw new CniError(
      inner.code,
      `failed to get network ${JSON.stringify(list.name)} cached result: ${inner.msg}`,
      inner.details,
    );
  }
  for (const plugin of list.plugins) {
    const path = await ctx.exec.findInPath(plugin.network.type, ctx.paths);
    const request = buildRequest(list.name, list.cniVersion, plugin, prevResult, rt);
    await execPluginWithoutResult(path, request.bytes, cniArgs(ctx, "CHECK", rt), invokeOptions(ctx));
  }
}
