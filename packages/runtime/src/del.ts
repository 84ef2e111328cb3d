/**
 * DEL over a list (AL-3, DEL-5, DEL-8, CACHE-7): plugins in reverse order, each given the
 * same cached result (only at 0.4.0 and later); an unreadable cache record is removed and
 * DEL goes on without it; the record is removed once every plugin succeeded.
 */
import { execPluginWithoutResult } from "@tscni/invoke";
import { compareVersions } from "@tscni/spec";
import type { Result } from "@tscni/spec";
import type { NetworkConfigList } from "@tscni/config";
import { cacheFileName } from "./cache.ts";
import { cachedResult, cniArgs, invokeOptions } from "./context.ts";
import type { RuntimeContext } from "./context.ts";
import { buildRequest, wrapPluginError } from "./request.ts";
import type { RuntimeConf } from "./runtime-conf.ts";

async function removeRecord(ctx: RuntimeContext, name: string, rt: RuntimeConf): Promise<void> {
  try {
    await ctx.cache.remove(cacheFileName(name, rt));
  } catch {
    // libcni ignores failures to remove the record
  }
}

/** Runs DEL on every plugin of `list` in reverse order; a failure keeps the cache for a retry. */
export async function delNetworkList(ctx: RuntimeContext, list: NetworkConfigList, rt: RuntimeConf): Promise<void> {
  let prevResult: Result | undefined;
  if (compareVersions(list.cniVersion, "0.4.0") >= 0) {
    try {
      prevResult = await cachedResult(ctx, list, rt);
    } catch {
      // An empty or corrupt record must not block DEL (CACHE-7, cni #1055).
      await removeRecord(ctx, list.name, rt);
      prevResult = undefined;
    }
  }
  for (let i = list.plugins.length - 1; i >= 0; i--) {
    const plugin = list.plugins[i];
    if (plugin === undefined) continue;
    try {
      const path = await ctx.exec.findInPath(plugin.network.type, ctx.paths);
      const request = buildRequest(list.name, list.cniVersion, plugin, prevResult, rt);
      await execPluginWithoutResult(path, request.bytes, cniArgs(ctx, "DEL", rt), invokeOptions(ctx));
    } catch (err) {
      throw wrapPluginError(plugin.network, "delete", err);
    }
  }
  // [DIFF] libcni removes the record only when it had read one; we always remove it after a
  // DEL in which every plugin succeeded (CACHE-7 wording; upstream PR #1095).
  await removeRecord(ctx, list.name, rt);
}
