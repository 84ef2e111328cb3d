/**
 * ADD over a list (AL-1, ADD-7): plugins in order, each given the previous result as
 * `prevResult`; the final result is cached only when every plugin succeeded (CACHE-4).
 */
import { execPluginWithResult } from "@tscni/invoke";
import { CniError, ErrorCode } from "@tscni/spec";
import type { Result } from "@tscni/spec";
import type { NetworkConfigList } from "@tscni/config";
import { cacheFileName, encodeCacheRecord } from "./cache.ts";
import { cniArgs, invokeOptions } from "./context.ts";
import type { RuntimeContext } from "./context.ts";
import { buildRequest, wrapPluginError } from "./request.ts";
import type { RuntimeConf } from "./runtime-conf.ts";
import { validateContainerID, validateInterfaceName, validateNetworkName } from "./validate-ids.ts";

/** Runs ADD on every plugin of `list` and caches the final result. */
export async function addNetworkList(ctx: RuntimeContext, list: NetworkConfigList, rt: RuntimeConf): Promise<Result> {
  // libcni would cache a null result for a list without plugins; we refuse it instead.
  if (list.plugins.length === 0)
    throw new CniError(ErrorCode.InvalidNetworkConfig, `network ${JSON.stringify(list.name)} has no plugins`);
  let result: Result | undefined;
  for (const plugin of list.plugins) {
    try {
      const path = await ctx.exec.findInPath(plugin.network.type, ctx.paths);
      // Identifiers are checked on ADD only, after the lookup (VAL-4).
      validateContainerID(rt.containerID);
      validateNetworkName(list.name);
      validateInterfaceName(rt.ifName);
      const request = buildRequest(list.name, list.cniVersion, plugin, result, rt);
      // Each plugin's result goes to the next one as it is, not converted (RP-3).
      result = await execPluginWithResult(path, request.bytes, cniArgs(ctx, "ADD", rt), invokeOptions(ctx));
    } catch (err) {
      throw wrapPluginError(plugin.network, "add", err);
    }
  }
  const final = result as Result;
  try {
    await ctx.cache.write(cacheFileName(list.name, rt), encodeCacheRecord(list.name, list.bytes, rt, final));
  } catch (err) {
    const inner = CniError.from(err);
    throw new CniError(
      inner.code === ErrorCode.Internal ? ErrorCode.IOFailure : inner.code,
      `failed to set network ${JSON.stringify(list.name)} cached result: ${inner.msg}`,
      inner.details,
    );
  }
  return final;
}
