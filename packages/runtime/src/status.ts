/**
 * STATUS over a list (GS-1, GS-2): nothing below 1.1.0; otherwise plugins in order, and
 * the first error returned unwrapped so codes 50 and 51 stay visible.
 */
import { execPluginWithoutResult } from "@tscni/invoke";
import { versionAtLeast } from "@tscni/spec";
import type { NetworkConfigList } from "@tscni/config";
import { cniArgs, invokeOptions } from "./context.ts";
import type { RuntimeContext } from "./context.ts";
import { buildStatusRequest } from "./request.ts";

/** Asks every plugin of `list` whether it is ready; throws the first plugin's error. */
export async function statusNetworkList(ctx: RuntimeContext, list: NetworkConfigList): Promise<void> {
  if (!versionAtLeast(list.cniVersion, "1.1.0")) return;
  for (const plugin of list.plugins) {
    const request = buildStatusRequest(list.name, list.cniVersion, plugin);
    const path = await ctx.exec.findInPath(plugin.network.type, ctx.paths);
    await execPluginWithoutResult(path, request.bytes, cniArgs(ctx, "STATUS", undefined), invokeOptions(ctx));
  }
}
